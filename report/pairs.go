package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"bench/report/paired"
	"bench/trackfacts"
)

// pairedTracks are the (A, B) track pairs compared per task, as trackfacts
// (and so the registry) names them: the agent against each workflow track.
var pairedTracks = trackfacts.Pairs()

// MinBootstrapN is the fewest counted episodes on each side for which the
// report gives the percentile-bootstrap interval of a token ratio. Its
// real coverage, measured by TestBootstrapCoverage (4,000 pairs of samples
// each of log-normal, exponential and uniform token counts), is 0.67–0.68
// at 2 episodes a side, 0.89–0.91 at 3 (under 90% for log-normal counts),
// 0.93 at 4, 0.94 at 4 against 10: below 4 on either side the interval is
// left out, with a footnote.
const MinBootstrapN = 4

// pairs computes, per task, model and paired tracks present, the token
// ratio A/B and the exact McNemar test, with a footnote where no episode
// pairs, where McNemar cannot reach significance, or where the ratio has
// no interval.
func (a *Aggregate) pairs(cells []*cell, notes *footnotes) ([]Ratio, []McNemar) {
	type taskModel struct{ task, model, variant string } // pairs stay within a model and a variant
	byTask := map[taskModel]map[string]*cell{}
	var tasks []taskModel
	for _, c := range cells {
		k := taskModel{c.task, c.model, c.variant}
		if byTask[k] == nil {
			byTask[k] = map[string]*cell{}
			tasks = append(tasks, k) // cells are sorted by task, model, then variant
		}
		byTask[k][c.track] = c
	}
	var ratios []Ratio
	var tests []McNemar
	need := paired.McNemarNeeds(Alpha)
	for _, task := range tasks {
		for _, p := range pairedTracks {
			x, y := byTask[task][p[0]], byTask[task][p[1]]
			if x == nil || y == nil || len(x.counted) == 0 || len(y.counted) == 0 {
				continue // a cell of lost, interrupted or planned episodes only has nothing to compare
			}
			m := a.mcnemar(x, y)
			m.NeedDiscordant = need
			if r, ok := a.ratio(x, y); ok {
				if r.Interval == nil && min(r.NumN, r.DenN) < MinBootstrapN {
					m.Notes = addTo(m.Notes, notes.add(fmt.Sprintf("no bootstrap interval for a token ratio with fewer than %d counted episodes on a side: its coverage falls under 90%% there (measured: 0.67 at 2 a side, 0.89-0.91 at 3, 0.93 at 4)", MinBootstrapN)))
				}
				ratios = append(ratios, r)
			}
			switch {
			case m.Pairs == 0:
				m.Notes = addTo(m.Notes, notes.add(fmt.Sprintf("%s: no pair of %s and %s episodes: episodes pair only within one run (same run, task, seed and repeat), so no McNemar test", task.task, m.A, m.B)))
			case m.OnlyA+m.OnlyB < need:
				m.Notes = addTo(m.Notes, notes.add(fmt.Sprintf("McNemar needs >= %d discordant pairs (only one of the two tracks passed) to reach p < %g: with fewer, as here, no p it gives is significant", need, Alpha)))
			}
			tests = append(tests, m)
		}
	}
	return ratios, tests
}

// ratio compares the median tokens of num and den (tokensAcross picks
// the basis, as compare does); no ratio when a median is not positive. The bootstrap interval
// is left out below MinBootstrapN episodes a side, and when it is
// unbounded (den holds episodes of 0 tokens, which enough resamples pick).
func (a *Aggregate) ratio(num, den *cell) (Ratio, bool) {
	r := Ratio{Task: num.task, Model: num.model, Variant: num.variant, Num: num.track, Den: den.track, NumN: len(num.counted), DenN: len(den.counted)}
	xs, ys, basis := tokensAcross(a, a, num, den)
	mx, my := median(xs), median(ys)
	if mx <= 0 || my <= 0 {
		return r, false
	}
	r.Basis, r.NumMedian, r.DenMedian, r.Ratio = basis, mx, my, mx/my
	if min(len(xs), len(ys)) >= MinBootstrapN {
		iv := RatioInterval(xs, ys, seedFor(num.task+"/"+num.track+"/"+den.track+variantSeed(num.variant)))
		if finite(iv.Low) && finite(iv.High) {
			r.Interval = &iv
		}
	}
	return r, true
}

// pairKey is an episode as McNemar pairs it: by run, seed and repeat.
// Episodes of different runs never pair: they may differ in settings, and
// the seeds of two runs are not matched draws.
type pairKey struct {
	run    int
	seed   int64
	repeat int32
	pass   bool
}

// keysOf returns the pair keys of a cell's counted episodes, sorted.
func (a *Aggregate) keysOf(c *cell) []pairKey {
	out := make([]pairKey, len(c.counted))
	for i, k := range c.counted {
		e := &a.eps[c.idx[k]]
		out[i] = pairKey{a.inputs[e.input].runIdx, e.seed, e.repeat, e.pass()}
	}
	slices.SortFunc(out, comparePairKeys)
	return out
}

// comparePairKeys orders pair keys by run, seed and repeat.
func comparePairKeys(x, y pairKey) int {
	return cmp.Or(cmp.Compare(x.run, y.run), cmp.Compare(x.seed, y.seed), cmp.Compare(x.repeat, y.repeat))
}

// mcnemar pairs the counted episodes of x and y and tests them.
func (a *Aggregate) mcnemar(x, y *cell) McNemar {
	t := McNemar{Task: x.task, Model: x.model, Variant: x.variant, A: x.track, B: y.track}
	xs, ys := x.keys, y.keys
	for i, j := 0, 0; i < len(xs) && j < len(ys); {
		switch c := comparePairKeys(xs[i], ys[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			t.Pairs++
			switch pa, pb := xs[i].pass, ys[j].pass; {
			case pa && pb:
				t.BothPass++
			case pa:
				t.OnlyA++
			case pb:
				t.OnlyB++
			default:
				t.BothFail++
			}
			i, j = i+1, j+1
		}
	}
	t.P = paired.McNemar(t.OnlyA, t.OnlyB).P
	return t
}

// finite reports whether x is neither infinite nor NaN.
func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
