package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bench/record"
)

// Alpha is the default significance level below which compare shows a
// change instead of "~", and the level of the report's McNemar notes.
const Alpha = 0.05

// Comparison is the result of Compare: its JSON form is the document of
// `bench compare --format json`.
type Comparison struct {
	Alpha  float64  `json:"alpha"`
	Need   int      `json:"need_per_side"` // episodes per side (both sides equal) below which no change of tokens can be significant at Alpha
	Models bool     `json:"models"`        // a side holds several models: each delta is of one model
	Deltas []Delta  `json:"deltas"`
	Notes  []string `json:"notes"` // settings in which the sides differ, episodes not counted
}

// Delta is the change of one task, track and model from old runs to new.
type Delta struct {
	Task              string  `json:"task"`
	Track             string  `json:"track"`
	Model             string  `json:"model"`     // the new side's model
	OldModel          string  `json:"old_model"` // the old side's (the same when the sides are matched by model)
	OldN              int     `json:"old_n"`
	NewN              int     `json:"new_n"`
	OldPassed         int     `json:"old_passed"`
	NewPassed         int     `json:"new_passed"`
	RateChange        float64 `json:"rate_change"` // new rate − old rate
	RateP             float64 `json:"rate_p"`      // Fisher's exact test, two-sided
	RateSignificant   bool    `json:"rate_significant"`
	RateTooFew        bool    `json:"rate_too_few"` // with these n no change of pass rate can be significant at alpha
	TokenBasis        string  `json:"token_basis"`  // "reported" or "estimated"
	OldTokens         float64 `json:"old_median_tokens"`
	NewTokens         float64 `json:"new_median_tokens"`
	TokensP           float64 `json:"tokens_p"` // Mann-Whitney U test, two-sided (exact for n1+n2 ≤ 60)
	TokensSignificant bool    `json:"tokens_significant"`
	TokensTooFew      bool    `json:"tokens_too_few"` // with these n no change of tokens can be significant at alpha
	TooFew            bool    `json:"too_few"`        // both measures are too few
}

// Compare computes, per task, track and model present in both old and new,
// the change in pass rate (Fisher's exact test) and in median tokens
// (Mann-Whitney U test) at significance level alpha, over the counted
// episodes (Aggregate). Cells present on one side only are left out.
// When a side holds several models, cells are matched by model too;
// otherwise comparing the two sides is comparing their models.
func Compare(old, new *Aggregate, alpha float64) Comparison {
	c := Comparison{Alpha: alpha, Need: neededPerSide(alpha)}
	oc, nc := old.group(), new.group()
	old.prepareCells(oc)
	new.prepareCells(nc)
	c.Models = severalModels(oc) || severalModels(nc)
	newCells := map[string]*cell{}
	for _, x := range nc {
		newCells[compareKey(x, c.Models)] = x
	}
	for _, o := range oc {
		n := newCells[compareKey(o, c.Models)]
		if n == nil || len(o.counted) == 0 || len(n.counted) == 0 {
			continue
		}
		c.Deltas = append(c.Deltas, delta(old, new, o, n, alpha))
	}
	slices.SortFunc(c.Deltas, func(a, b Delta) int {
		return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.Model, b.Model), compareTracks(a.Track, b.Track))
	})
	if diff := settingsDiff(old, new); diff != "" {
		c.Notes = append(c.Notes, "the runs differ in "+diff+": a change may come from the settings as well")
	}
	for _, side := range []struct {
		name  string
		a     *Aggregate
		cells []*cell
	}{{"old", old, oc}, {"new", new, nc}} {
		c.Notes = append(c.Notes, side.a.sideNotes(side.name, side.cells)...)
	}
	return c
}

// sideNotes says what one side of a comparison does not count.
func (a *Aggregate) sideNotes(side string, cells []*cell) []string {
	var lost, interrupted, notRun, inconsistent int
	for _, c := range cells {
		lost, interrupted, notRun = lost+c.lost, interrupted+c.interrupted, notRun+c.notRun()
		inconsistent += c.contradicts + c.edited + c.gone
	}
	var notes []string
	if lost > 0 {
		notes = append(notes, fmt.Sprintf("%s: %d episodes lost to server errors, not counted", side, lost))
	}
	if interrupted+notRun > 0 {
		notes = append(notes, fmt.Sprintf("%s: %d planned episodes interrupted or never started, not counted: the run is incomplete (bench run --resume)", side, interrupted+notRun))
	}
	if a.duplicates > 0 {
		notes = append(notes, fmt.Sprintf("%s: a run is given more than once: each episode counted once", side))
	}
	if inconsistent > 0 {
		notes = append(notes, fmt.Sprintf("%s: %d episodes say passed but are inconsistent (test counts or trajectory): counted as failed (bench report says which)", side, inconsistent))
	}
	return notes
}

// Unmatched names the task/track (/model, when the sides are matched by
// model) cells that only one side holds, which Compare leaves out.
func Unmatched(old, new *Aggregate) (onlyOld, onlyNew []string) {
	oc, nc := old.group(), new.group()
	byModel := severalModels(oc) || severalModels(nc)
	keys := func(cells []*cell) map[string]bool {
		m := map[string]bool{}
		for _, c := range cells {
			if len(c.counted) > 0 {
				m[compareKey(c, byModel)] = true
			}
		}
		return m
	}
	o, n := keys(oc), keys(nc)
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
func delta(old, new *Aggregate, o, n *cell, alpha float64) Delta {
	d := Delta{Task: o.task, Track: o.track, Model: n.model, OldModel: o.model, OldN: len(o.counted), NewN: len(n.counted)}
	d.OldPassed, d.NewPassed = old.passes(o), new.passes(n)
	d.RateChange = sig6(float64(d.NewPassed)/float64(d.NewN) - float64(d.OldPassed)/float64(d.OldN))
	d.RateP = sig6(FisherExact(d.OldPassed, d.OldN-d.OldPassed, d.NewPassed, d.NewN-d.NewPassed))
	d.RateSignificant = below(d.RateP, alpha)
	d.RateTooFew = !below(minFisherP(d.OldN, d.NewN), alpha)
	xs, ys, basis := tokensAcross(old, new, o, n)
	d.TokenBasis, d.OldTokens, d.NewTokens = basis, median(xs), median(ys)
	d.TokensP = sig6(MannWhitney(xs, ys))
	d.TokensSignificant = below(d.TokensP, alpha)
	d.TokensTooFew = !below(minRankSumP(d.OldN, d.NewN), alpha)
	d.TooFew = d.RateTooFew && d.TokensTooFew
	return d
}

// tokensAcross returns the sorted tokens of cell o of old and cell n of
// new, and their basis: the backend-reported ones when both medians of
// them are positive, else the offline estimate (a server that reports no
// tokens has a median of 0). The report's token ratio (old = new) and
// compare both choose so.
func tokensAcross(old, new *Aggregate, o, n *cell) (xs, ys []float64, basis string) {
	xs, ys = old.tokensOf(o, false), new.tokensOf(n, false)
	if median(xs) > 0 && median(ys) > 0 {
		return xs, ys, "reported"
	}
	return old.tokensOf(o, true), new.tokensOf(n, true), "estimated"
}

// below reports whether the p-value p is below alpha by more than the last
// bits of floating point: 2/C(6, 3) comes out as 0.09999999999999999 and
// is not below 0.1. Significance and "too few" are decided by it alone.
func below(p, alpha float64) bool { return p < alpha*(1-1e-9) }

// settingsDiff names the run settings (record.Run.Settings) in which the
// old and new runs differ, with each side's values, or "" when they agree.
// Runs without a model (oracle only) have no settings to differ in.
func settingsDiff(old, new *Aggregate) string {
	values := func(a *Aggregate, k int) []string {
		var vs []string
		for _, in := range a.inputs {
			if in.run.Model == "" {
				continue
			}
			if v := in.run.Settings()[k].Value; !slices.Contains(vs, v) {
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
