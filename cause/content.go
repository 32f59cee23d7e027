package cause

import (
	"fmt"
	"slices"
	"strings"

	"bench/trackfacts"

	"bench/model"
	"bench/record"
)

// cutReply: a reply was cut off at the reply cap. When the track wrote
// it, the failures raised in the file it went to are its.
func (d *deriver) cutReply() []Cause {
	var turns []string
	for _, ev := range d.in.Events {
		if ev.Kind == record.EventResponse && ev.StopReason == model.StopLength {
			turns = append(turns, fmt.Sprint(ev.Turn))
		}
	}
	n := len(turns)
	if n == 0 {
		n = d.in.Episode.CutReplies
	}
	if n == 0 {
		return nil
	}
	for _, p := range d.rp.order {
		w := d.rp.files[p]
		if !w.cut {
			continue
		}
		tests, f := d.raisedIn(p)
		d.claim(tests)
		ev := fmt.Sprintf("reply %d was cut off at the reply cap and written as it was to %s (%d bytes)", w.turn, p, w.size)
		if f != nil {
			ev += ": " + quote(f)
		}
		return []Cause{{Name: CutReply, Evidence: ev, Tests: tests, File: p}}
	}
	ev := plural(n, "reply was", "replies were") + " cut off at the reply cap"
	if len(turns) > 0 {
		ev += " (reply " + strings.Join(turns, ", ") + ")"
	}
	return []Cause{{Name: CutReply, Evidence: ev + "; none was written"}}
}

// malformedReply: a workflow wrote prose as the file (a reply without a
// code block), or its last use of a reply was a reject.
func (d *deriver) malformedReply() []Cause {
	var out []Cause
	for _, p := range d.rp.order {
		w := d.rp.files[p]
		if !w.noBlock {
			continue
		}
		tests, f := d.raisedIn(p)
		d.claim(tests)
		ev := fmt.Sprintf("reply %d had no code block after its FILE: line, and the text after that line (%d bytes) was written to %s", w.turn, w.size, p)
		if w.fallback {
			ev = fmt.Sprintf("reply %d had no FILE: line and no code block, and the naive fallback wrote the whole reply (%d bytes) over %s", w.turn, w.size, p)
		}
		if f != nil {
			ev += ": " + quote(f)
		}
		out = append(out, Cause{Name: MalformedReply, Evidence: ev, Tests: tests, File: p, Fallback: w.fallback})
	}
	if rj := d.rp.rejects; len(rj) > 0 && d.rp.lastRej > d.rp.lastAt {
		last := rj[len(rj)-1]
		ev := fmt.Sprintf("reply %d was rejected and nothing was written after it: %s", last.Turn, clip(last.Reason, maxPart))
		if len(rj) > 1 {
			ev = fmt.Sprintf("%d replies were rejected and nothing was written after the last (reply %d): %s", len(rj), last.Turn, clip(last.Reason, maxPart))
		}
		out = append(out, Cause{Name: MalformedReply, Evidence: ev, File: last.Path})
	}
	return out
}

// lostContent: a written file shrank, and a failure after the write names
// something that a line of the original defined and the written file no
// longer has.
func (d *deriver) lostContent() []Cause {
	missing, example := d.missingNames()
	if len(missing) == 0 {
		return nil
	}
	var out []Cause
	for _, p := range d.rp.order {
		w := d.rp.files[p]
		orig, ok := d.in.Task.Files[p]
		if !ok || w.size >= len(orig) {
			continue
		}
		var lost, tests []string
		var first *failure
		for _, def := range definitions(orig, d.in.Task.Framework) {
			needed, ok := missing[def.name]
			if !ok || (w.known && hasLine(w.content, def.line)) || slices.Contains(lost, def.line) {
				continue
			}
			lost = append(lost, def.line)
			tests = append(tests, needed...)
			if first == nil {
				first = example[def.name]
			}
		}
		if len(lost) == 0 {
			continue
		}
		slices.Sort(tests)
		tests = slices.Compact(tests)
		d.claim(tests)
		who := fmt.Sprintf("the write of reply %d", w.turn)
		switch {
		case w.fallback:
			who = "the naive fallback (no FILE: line)"
		case d.agent:
			who = "the agent's last write"
		}
		ev := fmt.Sprintf("%s put %d of %d bytes in %s and lost %s: %s", who, w.size, len(orig), p, code(lost), quote(first))
		out = append(out, Cause{Name: LostContent, Evidence: ev, Tests: tests, File: p, Lost: lost, Fallback: w.fallback})
	}
	return out
}

// missingNames returns, for each name that a failure after the write says
// is missing (and the first run did not), the failing tests that say it,
// and one such failure per name.
func (d *deriver) missingNames() (map[string][]string, map[string]*failure) {
	missing, example := map[string][]string{}, map[string]*failure{}
	for _, t := range d.unclaimed() {
		f := d.finalFailure(t)
		if f == nil || d.base.shows(f) {
			continue
		}
		for _, n := range missingIn(f) {
			missing[n] = append(missing[n], t)
			if example[n] == nil {
				example[n] = f
			}
		}
	}
	return missing, example
}

// noChange: nothing was written, or the writes left every file as it was.
func (d *deriver) noChange() []Cause {
	if d.rp.writes > 0 {
		if !d.same {
			return nil
		}
		return []Cause{{Name: NoChange, Evidence: "the writes left " + strings.Join(d.rp.order, ", ") + " as the task had it", File: d.rp.order[0]}}
	}
	if d.replies() == 0 {
		return nil // the model never answered: nothing to say about its edits
	}
	ev := "nothing was written"
	switch calls := d.writeCalls(); {
	case len(d.rp.rejects) > 0:
		ev += ": every reply the track tried to use was rejected"
	case d.agent && calls == 0:
		ev += ": the agent never called write_file or edit_file"
	case d.agent:
		ev += fmt.Sprintf(": the agent's %s failed", plural(calls, "write_file or edit_file call", "write_file and edit_file calls"))
	}
	return []Cause{{Name: NoChange, Evidence: ev}}
}

// writeCalls counts the agent's write_file and edit_file calls.
func (d *deriver) writeCalls() int {
	n := 0
	for _, ev := range d.in.Events {
		if ev.Kind == record.EventToolCall && (ev.Tool == trackfacts.WriteFile || ev.Tool == trackfacts.EditFile) {
			n++
		}
	}
	return n
}

// replies counts the model's replies.
func (d *deriver) replies() int {
	n := 0
	for _, ev := range d.in.Events {
		if ev.Kind == record.EventResponse {
			n++
		}
	}
	return n
}

// raisedIn returns the unclaimed failing tests whose failure at the end
// was raised in file p and not shown by the first run (a load failure
// raised there counts for every test it kept from running), with the
// first such failure.
func (d *deriver) raisedIn(p string) ([]string, *failure) {
	var tests []string
	var first *failure
	for _, t := range d.unclaimed() {
		f := d.finalFailure(t)
		if f == nil || d.innermost(f).file != p || d.base.shows(f) {
			continue
		}
		tests = append(tests, t)
		if first == nil {
			first = f
		}
	}
	return tests, first
}

// innermost is a failure's innermost frame in a file of the workspace:
// the task's or one the episode wrote.
func (d *deriver) innermost(f *failure) frame {
	for i := len(f.frames) - 1; i >= 0; i-- {
		fr := f.frames[i]
		if _, ok := d.in.Task.Files[fr.file]; ok || d.rp.wrote(fr.file) {
			return fr
		}
	}
	return frame{}
}
