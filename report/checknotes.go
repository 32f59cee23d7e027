package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"bench/internal/words"
	"bench/record"
)

// checkedNotes are the footnote IDs of the caveats on episodes, 0 when
// there is none, for the rows to refer to.
type checkedNotes struct {
	lost, interrupted, notRun, contradicts, edited, gone, timeouts int
}

// of returns the IDs of the caveats that concern the episodes of c.
func (k checkedNotes) of(c *cell) []int {
	var ids []int
	for _, x := range []struct{ n, id int }{
		{c.lost, k.lost}, {c.interrupted, k.interrupted}, {c.notRun(), k.notRun}, {c.contradicts, k.contradicts},
		{c.edited, k.edited}, {c.gone, k.gone}, {c.timeouts, k.timeouts},
	} {
		if x.n > 0 && x.id > 0 {
			ids = addTo(ids, x.id)
		}
	}
	return ids
}

// checkNotes adds the footnotes on the episodes that are not counted, or
// not taken at their line's word, and on runs given more than once.
func (a *Aggregate) checkNotes(cells []*cell, notes *footnotes) checkedNotes {
	var lost, interrupted, notRun, contradicts, timeouts int
	var missing, edited, gone named
	for _, c := range cells {
		lost, interrupted, notRun = lost+c.lost, interrupted+c.interrupted, notRun+c.notRun()
		contradicts, timeouts = contradicts+c.contradicts, timeouts+c.timeouts
		for _, g := range c.idx {
			e := &a.eps[g]
			path := func() string { return a.trajectoryPath(e) }
			switch {
			case e.flaw == record.FlawTrajectoryEdited:
				edited.add(path)
			case e.flaw == record.FlawTrajectoryMissing:
				gone.add(path)
			case e.flags&flagMissing != 0:
				missing.add(path)
			}
		}
	}
	var ids checkedNotes
	if lost > 0 {
		ids.lost = notes.add(words.Plural(lost, "episode") + " lost to server errors, not counted (infrastructure errors: unreachable, timeout, server, bad_reply; bench run --resume redoes them)")
	}
	if interrupted > 0 {
		ids.interrupted = notes.add(words.Plural(interrupted, "episode") + " interrupted (cut short by Ctrl-C or a stopped run), not counted: bench run --resume redoes them")
	}
	if notRun > 0 {
		ids.notRun = notes.add(words.Plural(notRun, "planned episode") + " never started: the run stopped before them (bench run --resume runs them)")
	}
	if contradicts > 0 {
		ids.contradicts = notes.add(words.Plural(contradicts, "episode") + " inconsistent: the line says passed but its test counts disagree (not all tests passed, or none ran) or it ran out of time: counted as failed")
	}
	if edited.n > 0 {
		ids.edited = notes.add(fmt.Sprintf("%s edited after the run (SHA-256 differs from the one recorded): inconsistent, counted as failed: %s",
			words.Plural(edited.n, "trajectory file"), edited))
	}
	if gone.n > 0 {
		ids.gone = notes.add(fmt.Sprintf("%s of passed episodes missing although their digest was recorded: inconsistent, counted as failed: %s",
			words.Plural(gone.n, "trajectory file"), gone))
	}
	if timeouts > 0 {
		ids.timeouts = notes.add(fmt.Sprintf("grading timed out in %s (the tests ran past their time limit): counted as failed", words.Plural(timeouts, "episode")))
	}
	if missing.n > 0 {
		notes.add(fmt.Sprintf("%s missing (bench show cannot show those episodes): %s", words.Plural(missing.n, "trajectory file"), missing))
	}
	a.duplicateNotes(notes)
	return ids
}

// duplicateNotes adds the footnote on runs given more than once.
func (a *Aggregate) duplicateNotes(notes *footnotes) {
	if a.duplicates == 0 {
		return
	}
	var parts []string
	for _, r := range a.runs {
		if len(r.inputs) < 2 {
			continue
		}
		dirs := make([]string, len(r.inputs))
		for i, in := range r.inputs {
			dirs[i] = a.inputs[in].dir
		}
		parts = append(parts, fmt.Sprintf("run %s is given %d times (%s)", r.label, len(dirs), strings.Join(dirs, ", ")))
	}
	slices.Sort(parts)
	text := strings.Join(parts, "; ") + ": each episode counted once"
	if a.conflicting > 0 {
		text += fmt.Sprintf(" (%s differ between the copies; the first finished one counts)", words.Plural(a.conflicting, "episode"))
	}
	notes.add(text)
}

// trajectoryPath is where episode e's trajectory is, or should be.
func (a *Aggregate) trajectoryPath(e *epRec) string {
	in := a.inputs[e.input]
	c := a.cells[e.cell]
	return filepath.Join(in.dir, record.TrajectoryRel(in.run, record.Episode{Task: c.task, Track: c.track, Model: c.model, Variant: c.variant, Seed: int(e.seed), Repeat: int(e.repeat)}))
}

// named counts paths and keeps the first firstFewMax of them.
type named struct {
	n     int
	first []string
}

// add counts a path, keeping it (made only then) if it is among the first.
func (x *named) add(path func() string) {
	x.n++
	if len(x.first) < firstFewMax {
		x.first = append(x.first, path())
	}
}

// String joins the first paths, saying how many more there are.
func (x named) String() string {
	s := strings.Join(x.first, ", ")
	if more := x.n - len(x.first); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

// firstFewMax is how many paths a footnote names.
const firstFewMax = 3

// Incomplete says that the run is incomplete, what it lacks and how to
// finish it; "" when it holds every episode it planned.
func (r RunInfo) Incomplete() string {
	if r.Unfinished == 0 {
		return ""
	}
	return unfinishedNote(r)
}

// unfinishedNote says that a run is incomplete and how to finish it.
func unfinishedNote(r RunInfo) string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{r.Interrupted, "interrupted"}, {r.Lost, "lost"}, {r.NotRun, "never started"}} {
		if p.n > 0 {
			parts = append(parts, strconv.Itoa(p.n)+" "+p.what)
		}
	}
	return fmt.Sprintf("incomplete: %d of %s have not finished (%s); finish the run with: %s",
		r.Unfinished, words.Plural(r.Planned, "planned episode"), strings.Join(parts, ", "), r.Resume)
}
