package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bench/record"
	"bench/report/paired"
	"bench/trackfacts"
)

// Alpha is the default significance level below which compare shows a
// change instead of "~", and the level of the report's McNemar notes.
const Alpha = paired.DefaultAlpha

// Comparison is the result of Compare: its JSON form is the document of
// `bench compare --format json`.
type Comparison struct {
	Alpha float64 `json:"alpha"`
	// Need is the episodes per side (both sides equal) below which the
	// unpaired test of tokens cannot be significant at Alpha; NeedPairs the
	// discordant pairs (or pairs with a difference) below which a paired
	// test cannot.
	Need      int  `json:"need_per_side"`
	NeedPairs int  `json:"need_pairs"`
	Models    bool `json:"models"` // a side holds several models: each delta is of one model
	// Compared names what differs between the sides: the settings in which
	// the runs differ, a model included, or that they differ in none.
	Compared   string           `json:"compared"`
	PairedBy   string           `json:"paired_by"`   // the fields episodes pair on
	TokenBasis string           `json:"token_basis"` // BasisReported or BasisEstimated, for every delta
	Header     []string         `json:"header"`      // the lines the text formats print above the tables
	Pairing    paired.Pairing   `json:"pairing"`
	Deltas     []Delta          `json:"deltas"`
	Pooled     []Pooled         `json:"pooled"`         // one per track (and model): the answer pooled over tasks
	Gate       *paired.Decision `json:"gate,omitempty"` // set by ApplyGate (--fail-on regression)
	Notes      []string         `json:"notes"`          // episodes not counted, keys given twice

	raw paired.Comparison // what the deltas and pooled answers were made from, for ApplyGate
}

// Delta is the change of one task, track and model from old runs to new.
// Its counts (OldN, OldPassed, ...) are of every counted episode, as bench
// report counts them; its tests and effects are of the episodes tested:
// the pairs when the cell has any (Paired), else all.
type Delta struct {
	Task              string           `json:"task"`
	Track             string           `json:"track"`
	Model             string           `json:"model"`             // the new side's model
	Variant           string           `json:"variant,omitempty"` // the values of the runs' dimensions, when they have any
	OldModel          string           `json:"old_model"`         // the old side's (the same when the sides are matched by model)
	OldN              int              `json:"old_n"`
	NewN              int              `json:"new_n"`
	OldPassed         int              `json:"old_passed"`
	NewPassed         int              `json:"new_passed"`
	Paired            bool             `json:"paired"`       // tested on its pairs (paired tests); else unpaired tests on all
	Pairs             int              `json:"pairs"`        // episodes of both sides with the same task, track, seed and repeat (and model)
	LeftOutOld        int              `json:"left_out_old"` // counted old episodes without a pair, in no test of a paired cell
	LeftOutNew        int              `json:"left_out_new"`
	RateTest          string           `json:"rate_test"`     // paired.TestMcNemarExact or paired.TestFisherExact
	RateChange        float64          `json:"rate_change"`   // new rate − old rate over the episodes tested
	RateInterval      *paired.Interval `json:"rate_interval"` // Newcombe's, at the comparison's confidence; null when a side is empty
	RateP             float64          `json:"rate_p"`        // two-sided
	RateSignificant   bool             `json:"rate_significant"`
	RateTooFew        bool             `json:"rate_too_few"`      // with these episodes no change of pass rate can be significant at alpha
	Seeds             *paired.Seeds    `json:"seeds,omitempty"`   // paired cells: the seeds per task that would detect the change
	TokenBasis        string           `json:"token_basis"`       // BasisReported or BasisEstimated
	OldTokens         float64          `json:"old_median_tokens"` // of the episodes tested
	NewTokens         float64          `json:"new_median_tokens"`
	TokensTest        string           `json:"tokens_test"`  // a Wilcoxon signed-rank test (paired) or a Mann-Whitney U test
	TokensRatio       *paired.Effect   `json:"tokens_ratio"` // new/old median, with its bootstrap interval; null when the old median is 0
	TokensP           float64          `json:"tokens_p"`     // two-sided
	TokensSignificant bool             `json:"tokens_significant"`
	TokensTooFew      bool             `json:"tokens_too_few"` // with these episodes no change of tokens can be significant at alpha
	TooFew            bool             `json:"too_few"`        // both measures are too few
	Caveats           []paired.Caveat  `json:"caveats"`
}

// Pooled is the answer of one track (and model) pooled over its tasks:
// paired.PooledResult, whose pass.test and pass.difference hold the
// test's name, p, the effect and its interval.
type Pooled = paired.PooledResult

// CompareOptions are the settings of Compare.
type CompareOptions struct {
	Alpha  float64 // significance level; 0 = Alpha
	Effect float64 // the change in pass rate the seeds needed are powered for; 0 = the observed one
}

// CompareWith pairs the counted episodes (Aggregate) of old and new by
// task, track, seed and repeat — and model, unless each side holds one
// model and they differ: then the model is what is compared — and tests
// each task, track and model both sides hold: on its pairs with the
// paired tests (exact McNemar, Wilcoxon signed-rank) when it has pairs,
// else on all its episodes with the unpaired ones (Fisher, Mann-Whitney).
// Per track it pools the tasks (paired.Compare). It returns an error for
// bad options only.
func CompareWith(old, new *Aggregate, o CompareOptions) (Comparison, error) {
	if o.Alpha == 0 {
		o.Alpha = Alpha
	}
	c := Comparison{Alpha: o.Alpha, Need: neededPerSide(o.Alpha), NeedPairs: paired.McNemarNeeds(o.Alpha)}
	oc, nc := old.group(), new.group()
	old.prepareCells(oc)
	new.prepareCells(nc)
	c.Models = severalModels(oc) || severalModels(nc)
	across := acrossModels(oc, nc)
	c.TokenBasis = tokenBasis(sideCells{old, oc}, sideCells{new, nc})
	oldEps, _ := old.pairedEpisodes(oc, c.TokenBasis, nil)
	newEps, _ := new.pairedEpisodes(nc, c.TokenBasis, nil)
	pc, err := paired.Compare(oldEps, newEps, paired.Options{Alpha: o.Alpha, AcrossModels: across, Effect: o.Effect, Seed: 1})
	if err != nil {
		return c, err
	}
	c.raw, c.Pairing, c.Pooled = pc, pc.Pairing, pc.Pooled
	oldCells, newCells := cellIndex(oc, across), cellIndex(nc, across)
	for _, r := range pc.Cells {
		k := r.Task + "/" + r.Track + "/" + r.Model + variantSeed(r.Variant)
		c.Deltas = append(c.Deltas, delta(old, new, oldCells[k], newCells[k], r, c.TokenBasis, o.Alpha))
	}
	slices.SortFunc(c.Deltas, func(a, b Delta) int {
		return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.Model, b.Model), trackfacts.Compare(a.Track, b.Track))
	})
	c.Compared = "the runs differ in no setting bench records: a change comes from what they do not name (the code of bench or of the tasks) or from noise"
	if diff := settingsDiff(old, new); diff != "" {
		c.Compared = "the runs differ in " + diff + ": that is what is compared (a change may come from any of them)"
	}
	c.PairedBy = "task, track, model, seed and repeat"
	if across {
		c.PairedBy = "task, track, seed and repeat (the model is what is compared)"
	}
	c.Header = []string{"compared: " + c.Compared, pairingLine(c), basisLine(c.TokenBasis)}
	for _, cv := range pc.Caveats {
		if cv.Kind != paired.CaveatNothingCompared {
			c.Notes = append(c.Notes, cv.Text)
		}
	}
	for _, side := range []struct {
		name  string
		a     *Aggregate
		cells []*cell
	}{{"old", old, oc}, {"new", new, nc}} {
		c.Notes = append(c.Notes, side.a.sideNotes(side.name, side.cells)...)
	}
	return c, nil
}

// pairingLine says how the episodes paired and which tests that chose.
func pairingLine(c Comparison) string {
	var pairedCells, unpaired int
	for _, d := range c.Deltas {
		if d.Paired {
			pairedCells++
		} else {
			unpaired++
		}
	}
	line := fmt.Sprintf("paired by %s: %d pairs; %d of %d rows tested on their pairs (McNemar, Wilcoxon signed-rank)", c.PairedBy, c.Pairing.Pairs, pairedCells, len(c.Deltas))
	if unpaired > 0 {
		line += fmt.Sprintf(", %d without a pair tested unpaired (Fisher, Mann-Whitney)", unpaired)
	}
	return line
}

// cellIndex maps task/track/model (the model left blank when it is what
// is compared) to the cell of one side.
func cellIndex(cells []*cell, across bool) map[string]*cell {
	m := map[string]*cell{}
	for _, c := range cells {
		if len(c.counted) == 0 {
			continue
		}
		model := c.model
		if across {
			model = ""
		}
		m[c.task+"/"+c.track+"/"+model+variantSeed(c.variant)] = c
	}
	return m
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

// Unmatched names the task/track (/model, unless the model is what is
// compared) cells that only one side holds, which Compare leaves out.
func Unmatched(old, new *Aggregate) (onlyOld, onlyNew []string) {
	oc, nc := old.group(), new.group()
	byModel := severalModels(oc) || severalModels(nc) // else one model a side: the same (no need to name it) or the one compared
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

// delta is one cell's row: the counts of its counted episodes on each
// side (o and n), and the tests of r.
func delta(old, new *Aggregate, o, n *cell, r paired.CellResult, basis string, alpha float64) Delta {
	d := Delta{Task: o.task, Track: o.track, Model: n.model, Variant: o.variant, OldModel: o.model, OldN: len(o.counted), NewN: len(n.counted),
		Paired: r.Paired, Pairs: r.Pass.Table.Pairs, LeftOutOld: r.LeftOutOld, LeftOutNew: r.LeftOutNew, Caveats: r.Caveats, TokenBasis: basis}
	d.OldPassed, d.NewPassed = old.passes(o), new.passes(n)
	t := r.Pass.Test
	d.RateTest, d.RateP, d.RateSignificant, d.RateTooFew = t.Name, sig6(t.P), t.Significant, !(t.MinP < alpha)
	if diff := r.Pass.Difference; diff != nil {
		d.RateChange, d.RateInterval = sig6(diff.Estimate), diff.Interval
	}
	if !d.RateSignificant {
		d.Seeds = r.Pass.Seeds
	}
	m := r.Tokens
	d.OldTokens, d.NewTokens, d.TokensRatio = m.OldMedian, m.NewMedian, m.Ratio
	d.TokensTest, d.TokensP, d.TokensSignificant, d.TokensTooFew = m.Test.Name, sig6(m.Test.P), m.Test.Significant, !(m.Test.MinP < alpha)
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
		return xs, ys, BasisReported
	}
	return old.tokensOf(o, true), new.tokensOf(n, true), BasisEstimated
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

// compareKey is what matches an old cell with a new one: its task and
// track, and its model unless the model is what is compared.
func compareKey(c *cell, byModel bool) string {
	if byModel {
		return c.task + "/" + c.track + "/" + c.model + variantSeed(c.variant)
	}
	return c.task + "/" + c.track + variantSeed(c.variant)
}
