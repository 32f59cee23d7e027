package replay

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ExitDiverged is the exit reason of an episode whose conversation could
// no longer follow its recording (record moves it beside the other Exit*
// reasons when the CLI is wired).
const ExitDiverged = "replay_diverged"

// KindEpisode is the Divergence.Kind of a difference in the episode's
// verdict or sums (passed, tests, exit reason, tokens), found by Finish.
const KindEpisode = "episode"

// Divergence is one step where the fresh side of a replayed episode
// differs from its recording.
type Divergence struct {
	// Seq is the recorded event's sequence number, and FreshSeq the fresh
	// one's in the new trajectory; -1 where that side has no event (an
	// event the fresh side did not produce, or one the recording lacks).
	// For the verdict both are the end events'.
	Seq      int    `json:"seq"`
	FreshSeq int    `json:"fresh_seq"`
	Turn     int    `json:"turn"`
	Kind     string `json:"kind"`             // the event's kind, or KindEpisode
	Within   string `json:"within,omitempty"` // the tool the event was recorded within (the hybrid's run_workflow)
	Tool     string `json:"tool,omitempty"`   // a tool_call's or tool_result's tool
	Fields   string `json:"fields"`           // what differs, comma-separated: "output, tests_total"
	Want     string `json:"want"`             // the recording's values of Fields, shortened around the first difference
	Got      string `json:"got"`              // the fresh side's
	// Stop says why the conversation could not follow the recording from
	// here; "" for a difference the episode went on past.
	Stop string `json:"stop,omitempty"`
}

// String is the divergence on one line: where, what was recorded and
// what came, and why it stopped when it did.
func (d Divergence) String() string {
	s := fmt.Sprintf("%s: recorded %s; replayed %s", d.where(), d.Want, d.Got)
	if d.Stop != "" {
		s += "; stopped: " + d.Stop
	}
	return s
}

// where names the step: the recorded and fresh sequence numbers, the
// turn, the kind and the tool.
func (d Divergence) where() string {
	var at []string
	if d.Seq >= 0 {
		at = append(at, fmt.Sprintf("recorded seq %d", d.Seq))
	}
	if d.FreshSeq >= 0 {
		at = append(at, fmt.Sprintf("replayed seq %d", d.FreshSeq))
	}
	what := d.Kind
	if d.Kind != KindEpisode {
		what = fmt.Sprintf("turn %d, %s", d.Turn, d.Kind)
	}
	if d.Tool != "" {
		what += " of " + d.Tool
	}
	if d.Within != "" {
		what += " within " + d.Within
	}
	return fmt.Sprintf("%s (%s)", strings.Join(at, ", "), what)
}

// DivergedError is what Player.Chat returns once the conversation can no
// longer follow the recording; it ends the track as a failed call does.
type DivergedError struct{ At Divergence }

// Error says where the replay stopped following the recording and why,
// without the values (they are in At).
func (e *DivergedError) Error() string {
	return "replay diverged at " + e.At.where() + ": " + e.At.Stop
}

// ExitReason is the exit reason of an episode stopped by e, for a runner
// that asks its track's error for one.
func (e *DivergedError) ExitReason() string { return ExitDiverged }

// diff collects the fields of one step that differ, with both values.
type diff struct {
	fields, want, got []string
}

// text compares a long text field: the values are shortened around the
// first byte where they differ.
func (d *diff) text(field, want, got string) {
	if want == got {
		return
	}
	w, g := excerpts(want, got)
	d.add(field, w, g)
}

// value compares a short field of d.
func value[T comparable](d *diff, field string, want, got T) {
	if want != got {
		d.add(field, fmt.Sprintf("%q", fmt.Sprint(want)), fmt.Sprintf("%q", fmt.Sprint(got)))
	}
}

// add notes that field differs.
func (d *diff) add(field, want, got string) {
	d.fields = append(d.fields, field)
	d.want = append(d.want, field+"="+want)
	d.got = append(d.got, field+"="+got)
}

// empty reports whether nothing differed.
func (d *diff) empty() bool { return len(d.fields) == 0 }

// fill sets the fields, want and got of dv from d.
func (d *diff) fill(dv *Divergence) {
	dv.Fields = strings.Join(d.fields, ", ")
	dv.Want = capText(strings.Join(d.want, "; "), maxSide)
	dv.Got = capText(strings.Join(d.got, "; "), maxSide)
}

// Lengths of what a Divergence shows of each side.
const (
	excerptBefore = 40  // bytes kept before the first difference
	excerptAfter  = 120 // bytes kept from it on
	maxSide       = 600 // the most one side of a divergence holds
)

// excerpts returns want and got quoted, shortened to the part around the
// first byte where they differ, with the offset when it is not 0.
func excerpts(want, got string) (string, string) {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	start := max(0, i-excerptBefore)
	for start > 0 && !utf8.RuneStart(want[min(start, len(want)-1)]) {
		start--
	}
	cut := func(s string) string {
		if start >= len(s) {
			return `""`
		}
		end := min(len(s), i+excerptAfter)
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out := fmt.Sprintf("%q", s[start:end])
		if start > 0 {
			out = "…" + out
		}
		if end < len(s) {
			out += "…"
		}
		return out
	}
	w, g := cut(want), cut(got)
	if i > 0 {
		at := fmt.Sprintf(" (differs at byte %d)", i)
		w, g = w+at, g+at
	}
	return w, g
}

// capText shortens s to at most n bytes, at a rune boundary, marking the cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
