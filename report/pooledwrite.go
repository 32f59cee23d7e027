package report

import (
	"fmt"
	"strings"

	"bench/report/paired"
)

// pooledHeader is the header of a pooled table after its label columns.
var pooledHeader = []string{"tasks", "old passed", "new passed", "pass rate Δ [95% CI]", "pass-rate test", "tokens new/old [95% CI]", "tokens test", "seeds per task for 80% power"}

// pooledCells formats a pooled answer as the cells of pooledHeader: the
// pass rates of the episodes tested, the pooled difference with its
// interval, the stratified test, the ratio of the token medians with its
// bootstrap interval, and, when the pass-rate test is not significant, the
// seeds per task that would detect the change.
func pooledCells(p Pooled) []string {
	tasks := fmt.Sprintf("%d (%d paired)", p.Tasks, p.PairedTasks)
	t := p.Pass.Table
	return []string{tasks, Fraction(t.OldPass, t.OldN), Fraction(t.NewPass, t.NewN),
		differenceText(p.Pass.Difference), testText(p.Pass.Test), ratioText(p.Tokens.Ratio), testText(p.Tokens.Test),
		seedsText(p.Pass.Seeds, p.Pass.Test.Significant)}
}

// differenceText formats a change in pass rate with its interval, in
// percentage points.
func differenceText(e *paired.Effect) string {
	if e == nil {
		return Undefined
	}
	s := fmt.Sprintf("%+.1fpp", 100*e.Estimate)
	if e.Interval != nil {
		s += fmt.Sprintf(" [%+.1f, %+.1f]", 100*e.Interval.Low, 100*e.Interval.High)
	}
	return s
}

// ratioText formats a ratio of medians with its interval.
func ratioText(e *paired.Effect) string {
	if e == nil {
		return Undefined
	}
	s := fmt.Sprintf("×%.3g", e.Estimate)
	if e.Interval != nil {
		s += fmt.Sprintf(" [%.3g, %.3g]", e.Interval.Low, e.Interval.High)
	}
	return s
}

// testText names a test and gives its p, "~" when it is not significant.
func testText(t paired.Test) string {
	if t.Name == paired.TestNone {
		return Undefined
	}
	mark := "~"
	if t.Significant {
		mark = "changed"
	}
	return fmt.Sprintf("%s p=%.3f %s", testLabel(t.Name), t.P, mark)
}

// testLabel is a test's name as a table shows it.
func testLabel(name string) string {
	switch name {
	case paired.TestMcNemarExact:
		return "McNemar"
	case paired.TestFisherExact:
		return "Fisher"
	case paired.TestStratifiedExact:
		return "stratified exact"
	case paired.TestWilcoxonExact, paired.TestWilcoxonNormal:
		return "Wilcoxon"
	case paired.TestMannWhitneyExact, paired.TestMannWhitneyNormal:
		return "Mann-Whitney"
	case paired.TestStratifiedWilcoxon, paired.TestStratifiedWilcoxonNrm:
		return "stratified Wilcoxon"
	}
	return name
}

// seedsText says how many seeds per task would detect a change that is
// within noise: "–" when the change is significant or nothing can be
// estimated (a footnote says why), "> 1000" beyond paired.MaxSeeds.
func seedsText(s *paired.Seeds, significant bool) string {
	switch {
	case significant || s == nil:
		return Undefined
	case s.Seeds == 0:
		return fmt.Sprintf("> %d", paired.MaxSeeds)
	}
	return fmt.Sprintf("%d (now %d) for Δ %.3g", s.Seeds, s.SeedsNow, s.Effect)
}

// pooledNoteKinds are the caveats of a pooled answer its table footnotes.
var pooledNoteKinds = []string{paired.CaveatWithinNoise, paired.CaveatCannotReach, paired.CaveatNoDifference, paired.CaveatFewTasks,
	paired.CaveatUnpairedStrata, paired.CaveatAssumed, paired.CaveatSeedsUnknown, paired.CaveatSeedsBeyond, paired.CaveatRatioUndefined, paired.CaveatUnbounded}

// pooledNotes adds the caveats of p that its table footnotes, each after
// prefix, and returns their IDs. The table shows no turns, so neither do its footnotes (the
// JSON keeps every caveat).
func pooledNotes(p Pooled, prefix string, notes *footnotes) []int {
	var ids []int
	for _, c := range p.Caveats {
		if strings.HasPrefix(c.Text, "pooled turns") {
			continue
		}
		for _, k := range pooledNoteKinds {
			if c.Kind == k {
				ids = addTo(ids, notes.add(prefix+c.Text))
				break
			}
		}
	}
	return ids
}

// pooledPrefix names a pooled answer in its footnotes.
func pooledPrefix(p Pooled) string {
	var parts []string
	for _, s := range []string{p.Track, p.Model} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " ") + ": "
}
