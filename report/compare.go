package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bench/record"
)

// Alpha is the default significance level below which compare shows a
// change instead of "~".
const Alpha = 0.05

// Comparison is the result of Compare: its JSON form is the document of
// `bench compare --format json`.
type Comparison struct {
	Alpha  float64  `json:"alpha"`
	Need   int      `json:"need_per_side"` // episodes per side below which no change can be significant at Alpha
	Deltas []Delta  `json:"deltas"`
	Notes  []string `json:"notes"` // settings in which the sides differ, episodes not counted
}

// Delta is the change of one task and track from old runs to new runs.
type Delta struct {
	Task              string  `json:"task"`
	Track             string  `json:"track"`
	Model             string  `json:"model"` // the new side's model
	OldN              int     `json:"old_n"`
	NewN              int     `json:"new_n"`
	OldPassed         int     `json:"old_passed"`
	NewPassed         int     `json:"new_passed"`
	RateChange        float64 `json:"rate_change"` // new rate − old rate
	RateP             float64 `json:"rate_p"`      // Fisher's exact test, two-sided
	RateSignificant   bool    `json:"rate_significant"`
	TokenBasis        string  `json:"token_basis"` // "reported" or "estimated"
	OldTokens         float64 `json:"old_median_tokens"`
	NewTokens         float64 `json:"new_median_tokens"`
	TokensP           float64 `json:"tokens_p"` // Mann-Whitney U test, two-sided (exact for n1+n2 ≤ 60)
	TokensSignificant bool    `json:"tokens_significant"`
	TooFew            bool    `json:"too_few"` // no change could be significant at alpha with these n
}

// Compare computes, per task and track present in both old and new, the
// change in pass rate (Fisher's exact test) and in median tokens
// (Mann-Whitney U test) at significance level alpha. Cells present on one
// side only are left out; lost episodes are in neither n.
func Compare(old, new []record.Outcomes, alpha float64) Comparison {
	c := Comparison{Alpha: alpha, Need: neededPerSide(alpha)}
	og, ng := group(old), group(new)
	byModel := severalModels(og.cells) || severalModels(ng.cells)
	newCells := map[string]*cell{}
	for _, x := range ng.cells {
		newCells[compareKey(x, byModel)] = x
	}
	for _, o := range og.cells {
		n := newCells[compareKey(o, byModel)]
		if n == nil || len(o.entries) == 0 || len(n.entries) == 0 {
			continue
		}
		c.Deltas = append(c.Deltas, delta(o, n, alpha))
	}
	slices.SortFunc(c.Deltas, func(a, b Delta) int {
		return cmp.Or(compareCells(a.Task, a.Track, b.Task, b.Track), cmp.Compare(a.Model, b.Model))
	})
	if diff := settingsDiff(old, new); diff != "" {
		c.Notes = append(c.Notes, "the runs differ in "+diff+": a change may come from the settings as well")
	}
	for _, side := range []struct {
		name string
		k    checks
	}{{"old", og.checks}, {"new", ng.checks}} {
		if side.k.lost > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: %d episodes lost to server errors, not counted", side.name, side.k.lost))
		}
		if side.k.duplicates > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: a run is given more than once: each episode counted once", side.name))
		}
		if side.k.inconsistent+side.k.edited.n > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: %d episodes say passed but are inconsistent or edited: not counted as passes (bench report says which)", side.name, side.k.inconsistent+side.k.edited.n))
		}
	}
	return c
}

// Unmatched names the task/track cells that only one side holds, which
// Compare leaves out.
func Unmatched(old, new []record.Outcomes) (onlyOld, onlyNew []string) {
	keys := func(in []record.Outcomes) map[string]bool {
		m := map[string]bool{}
		for _, c := range group(in).cells {
			if len(c.entries) > 0 {
				m[c.task+"/"+c.track] = true
			}
		}
		return m
	}
	o, n := keys(old), keys(new)
	for k := range o {
		if !n[k] {
			onlyOld = append(onlyOld, k)
		}
	}
	for k := range n {
		if !o[k] {
			onlyNew = append(onlyNew, k)
		}
	}
	slices.Sort(onlyOld)
	slices.Sort(onlyNew)
	return onlyOld, onlyNew
}

// delta compares one cell of the old runs with the same cell of the new.
func delta(o, n *cell, alpha float64) Delta {
	d := Delta{Task: o.task, Track: o.track, Model: n.model, OldN: len(o.entries), NewN: len(n.entries)}
	d.OldPassed, d.NewPassed = passes(o), passes(n)
	d.RateChange = sig6(float64(d.NewPassed)/float64(d.NewN) - float64(d.OldPassed)/float64(d.OldN))
	d.RateP = sig6(FisherExact(d.OldPassed, d.OldN-d.OldPassed, d.NewPassed, d.NewN-d.NewPassed))
	d.RateSignificant = d.RateP < alpha
	d.TokenBasis = "reported"
	xs, ys := tokensOf(o, false), tokensOf(n, false)
	if median(xs) == 0 && median(ys) == 0 {
		d.TokenBasis = "estimated"
		xs, ys = tokensOf(o, true), tokensOf(n, true)
	}
	d.OldTokens, d.NewTokens = median(xs), median(ys)
	d.TokensP = sig6(MannWhitney(xs, ys))
	d.TokensSignificant = d.TokensP < alpha
	d.TooFew = minRankSumP(d.OldN, d.NewN) >= alpha && minFisherP(d.OldN, d.NewN) >= alpha
	return d
}

// settingsDiff names the run settings (record.Run.Settings) in which the
// old and new runs differ, with each side's values, or "" when they agree.
// Runs without a model (oracle only) have no settings to differ in.
func settingsDiff(old, new []record.Outcomes) string {
	values := func(in []record.Outcomes, k int) []string {
		var vs []string
		for _, d := range in {
			if d.Run.Model == "" {
				continue
			}
			if v := d.Run.Settings()[k].Value; !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		slices.Sort(vs)
		return vs
	}
	var diffs []string
	for k, s := range (record.Run{}).Settings() {
		o, n := values(old, k), values(new, k)
		if len(o) == 0 || len(n) == 0 || slices.Equal(o, n) {
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s (old: %s, new: %s)", s.Name, strings.Join(o, " and "), strings.Join(n, " and ")))
	}
	return strings.Join(diffs, ", ")
}

// severalModels reports whether cells hold episodes of more than one model.
func severalModels(cells []*cell) bool {
	for _, c := range cells {
		if c.model != cells[0].model {
			return true
		}
	}
	return false
}

// compareKey is what pairs an old cell with a new one: its task and track,
// and its model when a side holds several models (else comparing two runs
// is comparing their models).
func compareKey(c *cell, byModel bool) string {
	if byModel {
		return c.task + "/" + c.track + "/" + c.model
	}
	return c.task + "/" + c.track
}
