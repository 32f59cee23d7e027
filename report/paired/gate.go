package paired

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"bench/internal/words"
)

// GateOptions are the rules of Gate.
type GateOptions struct {
	// Alpha is the family-wise significance level; 0 = DefaultAlpha.
	Alpha float64
	// MaxDrop, when set, makes a fall in pass rate of more than it (new
	// rate − old rate < −MaxDrop) a regression whether or not it is
	// significant (--max-drop). Unset, only significant falls count.
	MaxDrop *float64
	// MaxTokenRise, when set, makes a significant rise in median tokens a
	// regression when new/old − 1 > MaxTokenRise (--max-token-rise; 0 =
	// any significant rise). Unset, tokens are not checked.
	MaxTokenRise *float64
	// Unadjusted compares each raw p-value with Alpha. By default each
	// family of tests (per-task pass rates, pooled pass rates, per-task
	// tokens, pooled tokens) is Holm-adjusted.
	Unadjusted bool
}

// Rules of a Reason.
const (
	RuleSignificantDrop = "significant_drop" // the pass rate fell, significantly after adjustment
	RuleDropOverMax     = "drop_over_max"    // the pass rate fell by more than MaxDrop
	RuleTokenRise       = "token_rise"       // tokens rose significantly, by more than MaxTokenRise
)

// Levels of a Reason.
const (
	LevelTask   = "task"
	LevelPooled = "pooled"
)

// Measures of a Reason.
const (
	MeasurePassRate = "pass_rate"
	MeasureTokens   = "tokens"
)

// Decision is Gate's answer.
type Decision struct {
	Regression bool     `json:"regression"`
	Reasons    []Reason `json:"reasons"` // every rule that fired, sorted by level, track, model, task and rule
	Checked    int      `json:"checked"` // results (cells and pools) checked
	Notes      []Caveat `json:"notes"`
}

// Reason is one rule that fired on one result.
type Reason struct {
	Rule    string `json:"rule"`
	Level   string `json:"level"`
	Task    string `json:"task,omitempty"` // "" for a pooled result
	Track   string `json:"track,omitempty"`
	Model   string `json:"model,omitempty"`
	Measure string `json:"measure"`
	Test    string `json:"test"`
	// Effect is the change in pass rate (new − old) or the ratio of the
	// median tokens (new/old), with its interval when bounded.
	Effect    float64   `json:"effect"`
	Interval  *Interval `json:"interval,omitempty"`
	P         float64   `json:"p"`
	AdjustedP float64   `json:"adjusted_p"` // Holm within its family; P when unadjusted
	Family    int       `json:"family"`     // tests in its family that could reach alpha
	Limit     float64   `json:"limit"`      // MaxDrop or MaxTokenRise, when one applied
	Text      string    `json:"text"`
}

// candidate is one result's test as the gate reads it.
type candidate struct {
	level, measure    string
	task, track, mdl  string
	test              Test
	effect            *Effect
	adjusted          float64
	family            int
	reachable         bool
	oldZero, newAbove bool // tokens: the old median is 0 and the new is not
}

// Gate decides whether the new side of c regressed: a pass rate, per task
// or pooled, fell significantly or by more than MaxDrop, or tokens rose
// significantly by more than MaxTokenRise. Significance is Holm-adjusted
// within each family of tests (unless Unadjusted), over the tests of the
// family that could reach Alpha at all (Test.MinP < Alpha): a test that
// cannot be significant cannot raise a false alarm, so it does not dilute
// the others (Tarone, 1990). The family-wise false-alarm rate of each of
// the four families is then at most Alpha.
func Gate(c Comparison, o GateOptions) Decision {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	d := Decision{Reasons: []Reason{}, Notes: []Caveat{}}
	var cands []*candidate
	for _, r := range c.Cells {
		cands = append(cands,
			&candidate{level: LevelTask, measure: MeasurePassRate, task: r.Task, track: r.Track, mdl: r.Model, test: r.Pass.Test, effect: r.Pass.Difference},
			tokenCandidate(LevelTask, r.Cell, r.Tokens))
	}
	for _, r := range c.Pooled {
		cands = append(cands,
			&candidate{level: LevelPooled, measure: MeasurePassRate, track: r.Track, mdl: r.Model, test: r.Pass.Test, effect: r.Pass.Difference},
			tokenCandidate(LevelPooled, Cell{Track: r.Track, Model: r.Model, Variant: r.Variant}, r.Tokens))
	}
	d.Checked = len(c.Cells) + len(c.Pooled)
	if d.Checked == 0 {
		d.Notes = append(d.Notes, caveat(CaveatNothingCompared, "nothing compared: the gate has nothing to decide on"))
		return d
	}
	for _, level := range []string{LevelTask, LevelPooled} {
		for _, measure := range []string{MeasurePassRate, MeasureTokens} {
			fam := filter(cands, func(x *candidate) bool { return x.level == level && x.measure == measure })
			adjust(fam, o)
			if measure == MeasureTokens && o.MaxTokenRise == nil {
				continue
			}
			if len(fam) > 0 && !slices.ContainsFunc(fam, func(x *candidate) bool { return x.reachable }) {
				d.Notes = append(d.Notes, caveat(CaveatCannotReach, "no %s %s test could reach p < %g with these episodes%s", level, measureName(measure), o.Alpha, dropHint(measure, o)))
			}
		}
	}
	for _, x := range cands {
		d.Reasons = append(d.Reasons, x.reasons(o)...)
		if x.measure == MeasureTokens && o.MaxTokenRise != nil && x.oldZero && x.newAbove && x.adjusted < o.Alpha {
			d.Notes = append(d.Notes, caveat(CaveatRatioUndefined, "%s: tokens rose from an old median of 0: no ratio to hold against --max-token-rise", x.where()))
		}
	}
	slices.SortFunc(d.Reasons, func(a, b Reason) int {
		return cmp.Or(cmp.Compare(levelOrder(a.Level), levelOrder(b.Level)), cmp.Compare(a.Track, b.Track), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Task, b.Task), cmp.Compare(a.Measure, b.Measure), cmp.Compare(a.Rule, b.Rule))
	})
	d.Regression = len(d.Reasons) > 0
	return d
}

func tokenCandidate(level string, cell Cell, m Measure) *candidate {
	return &candidate{level: level, measure: MeasureTokens, task: cell.Task, track: cell.Track, mdl: cell.Model, test: m.Test, effect: m.Ratio,
		oldZero: m.OldMedian == 0, newAbove: m.NewMedian > 0}
}

func levelOrder(l string) int {
	if l == LevelPooled {
		return 0
	}
	return 1
}

func measureName(m string) string {
	if m == MeasurePassRate {
		return "pass-rate"
	}
	return m
}

func dropHint(measure string, o GateOptions) string {
	if measure == MeasurePassRate && o.MaxDrop == nil {
		return ": only a larger run (or --max-drop) can flag a fall"
	}
	return ""
}

func filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// adjust sets each candidate's adjusted p-value: Holm's step-down over the
// family's reachable tests (p₍ᵢ₎ multiplied by m−i+1, made monotone, capped
// at 1), 1 for the tests that cannot reach alpha; the raw p when
// Unadjusted.
func adjust(fam []*candidate, o GateOptions) {
	var reach []*candidate
	for _, x := range fam {
		x.reachable = x.test.Name != TestNone && x.test.MinP < o.Alpha
		x.adjusted = 1
		if x.reachable {
			reach = append(reach, x)
		}
	}
	for _, x := range fam {
		x.family = len(reach)
	}
	if o.Unadjusted {
		for _, x := range reach {
			x.adjusted = x.test.P
		}
		return
	}
	slices.SortStableFunc(reach, func(a, b *candidate) int { return cmp.Compare(a.test.P, b.test.P) })
	running := 0.0
	for i, x := range reach {
		running = math.Max(running, math.Min(1, float64(len(reach)-i)*x.test.P))
		x.adjusted = running
	}
}

func (x *candidate) where() string {
	s := x.level
	for _, f := range []string{x.task, x.track, x.mdl} {
		if f != "" {
			s += " " + f
		}
	}
	return s
}

// reasons are the rules that fire on the candidate.
func (x *candidate) reasons(o GateOptions) []Reason {
	if x.effect == nil {
		return nil
	}
	base := Reason{Level: x.level, Task: x.task, Track: x.track, Model: x.mdl, Measure: x.measure, Test: x.test.Name,
		Effect: x.effect.Estimate, Interval: x.effect.Interval, P: x.test.P, AdjustedP: x.adjusted, Family: x.family}
	var out []Reason
	significant := x.adjusted < o.Alpha
	if x.measure == MeasurePassRate {
		if significant && x.effect.Estimate < 0 {
			r := base
			r.Rule = RuleSignificantDrop
			r.Text = fmt.Sprintf("%s: pass rate fell by %.3g (p = %.3g, adjusted %.3g over %s)", x.where(), -x.effect.Estimate, x.test.P, x.adjusted, words.Plural(x.family, "test"))
			out = append(out, r)
		}
		if o.MaxDrop != nil && -x.effect.Estimate > *o.MaxDrop+1e-12 {
			r := base
			r.Rule, r.Limit = RuleDropOverMax, *o.MaxDrop
			r.Text = fmt.Sprintf("%s: pass rate fell by %.3g, more than --max-drop %g (p = %.3g)", x.where(), -x.effect.Estimate, *o.MaxDrop, x.test.P)
			out = append(out, r)
		}
		return out
	}
	if o.MaxTokenRise != nil && significant && x.effect.Estimate-1 > *o.MaxTokenRise+1e-12 {
		r := base
		r.Rule, r.Limit = RuleTokenRise, *o.MaxTokenRise
		r.Text = fmt.Sprintf("%s: median tokens rose %.3g-fold, more than --max-token-rise %g (p = %.3g, adjusted %.3g over %s)", x.where(), x.effect.Estimate, *o.MaxTokenRise, x.test.P, x.adjusted, words.Plural(x.family, "test"))
		out = append(out, r)
	}
	return out
}
