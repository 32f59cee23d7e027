package cause

import (
	"fmt"
	"slices"
	"strings"
)

// verdict is how one failing test compares across the first run and the end.
type verdict int

const (
	noVerdict verdict = iota
	broke             // it passed before the write
	masked            // it fails in a way the first run did not show
	wrong             // it fails as it did, or by the write's own doing
)

// change is one failing test's two runs, for evidence.
type change struct {
	test            string
	beforeSt        status
	beforeF, afterF *failure
	namesOnly       bool // no test output after the write: only grading's names
}

// compareRuns: compare each failing test (no rule has explained) between
// the first run and the end: broke_tests, masked_failure, wrong_fix.
// Only for an episode that changed a file and whose first run is known.
func (d *deriver) compareRuns() []Cause {
	if d.rp.writes == 0 || d.same || d.base == nil {
		return nil
	}
	groups := map[verdict][]change{}
	for _, t := range d.unclaimed() {
		v, c := d.compare(t)
		if v != noVerdict {
			groups[v] = append(groups[v], c)
		}
	}
	var out []Cause
	if g := groups[broke]; len(g) > 0 {
		out = append(out, Cause{Name: BrokeTests, Tests: testsOf(g), Evidence: fmt.Sprintf("%s passed before the write and %s after it: %s",
			names(testsOf(g)), fails(len(g)), quote(g[0].afterF))})
	}
	if g := groups[masked]; len(g) > 0 {
		c := g[0]
		out = append(out, Cause{Name: MaskedFailure, Tests: testsOf(g), Evidence: fmt.Sprintf("after the write %s %s in a way the first run did not show: %s: %s (before: %s)",
			names(testsOf(g)), fails(len(g)), c.test, quote(c.afterF), before(c.beforeSt, c.beforeF))})
	}
	// wrong_fix is "no new failure": beside one, the tests still failing
	// as before are a fix left unfinished, not a wrong one.
	if g := groups[wrong]; len(g) > 0 && len(out) == 0 {
		out = append(out, Cause{Name: WrongFix, Tests: testsOf(g), Evidence: wrongEvidence(g)})
	}
	return out
}

// compare decides how failing test t changed.
func (d *deriver) compare(t string) (verdict, change) {
	bst, bf := d.base.lookup(t)
	ast, af := d.final.lookup(t)
	c := change{test: t, beforeSt: bst, beforeF: bf, afterF: af}
	switch {
	case bst == passed:
		return broke, c
	case bst == unknown:
		return noVerdict, c
	case ast == unknown:
		c.namesOnly = true
		return wrong, c
	case ast == passed:
		return noVerdict, c // the track's last run passed it; grading did not (see the episode)
	case ast == notRun && bst != notRun, d.introduced(af):
		return wrong, c // the write kept it from running, or raised the failure itself
	case bst == notRun && ast == failed:
		return masked, c
	case sameFailure(bf, af) || d.base.shows(af):
		return wrong, c
	}
	return masked, c
}

// sameFailure reports whether two failures are the same: the same kind,
// raised at the same place or with the same message. Without both
// failures shown, nothing says they differ.
func sameFailure(a, b *failure) bool {
	if a == nil || b == nil {
		return true
	}
	return a.kind == b.kind && (a.site() == b.site() || a.message == b.message)
}

// introduced reports whether a failure was raised by a line the episode
// wrote: its innermost frame in the workspace is in a written file, on a
// line the original file does not have (for a build failure, any of its
// errors).
func (d *deriver) introduced(f *failure) bool {
	if f == nil {
		return false
	}
	frames := []frame{d.innermost(f)}
	if f.kind == "build" {
		frames = f.frames
	}
	for _, fr := range frames {
		w := d.rp.files[fr.file]
		if w == nil {
			continue
		}
		text := fr.code
		if text == "" && w.known {
			if lines := strings.Split(w.content, "\n"); fr.line >= 1 && fr.line <= len(lines) {
				text = strings.TrimSpace(lines[fr.line-1])
			}
		}
		if text != "" && !hasLine(d.in.Task.Files[fr.file], text) {
			return true
		}
	}
	return false
}

// wrongEvidence words wrong_fix's evidence from its first test whose
// message changed, or its first test.
func wrongEvidence(g []change) string {
	c, tests := g[0], names(testsOf(g))
	if i := slices.IndexFunc(g, changed); i >= 0 {
		c = g[i]
	}
	switch {
	case c.namesOnly:
		return fmt.Sprintf("%s still %s at grading (no test output after the last write to compare)", tests, fails(len(g)))
	case changed(c):
		return fmt.Sprintf("%s still %s: %s: %s (before: %s)", tests, fails(len(g)), c.test, quote(c.afterF), before(c.beforeSt, c.beforeF))
	}
	return fmt.Sprintf("%s still %s as before: %s", tests, fails(len(g)), quote(c.afterF))
}

// changed reports whether a test's failure reads otherwise after the write.
func changed(c change) bool {
	return c.afterF != nil && c.beforeF != nil && c.afterF.text != c.beforeF.text
}

func testsOf(g []change) []string {
	out := make([]string, len(g))
	for i, c := range g {
		out[i] = c.test
	}
	return out
}
