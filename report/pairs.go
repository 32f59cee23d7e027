package report

import (
	"fmt"
	"math"
	"slices"

	"bench/record"
	"bench/trackfacts"
)

// pairedTracks are the (A, B) track pairs compared per task, as trackfacts
// (and so the registry) names them: the agent against each workflow track.
var pairedTracks = trackfacts.Pairs()

// pairs computes, per task and paired tracks present, the token ratio A/B
// and the exact McNemar test, with a footnote where no episode pairs.
func pairs(cells []*cell, inputs []record.Outcomes, notes *footnotes) ([]Ratio, []McNemar) {
	type taskModel struct{ task, model string }
	byTask := map[taskModel]map[string]*cell{}
	var tasks []taskModel
	for _, c := range cells {
		k := taskModel{c.task, c.model}
		if byTask[k] == nil {
			byTask[k] = map[string]*cell{}
			tasks = append(tasks, k) // cells are sorted by task, then model
		}
		byTask[k][c.track] = c
	}
	var ratios []Ratio
	var tests []McNemar
	var keys packedKeys
	for _, task := range tasks {
		passed := map[*cell]map[uint64]bool{} // the task's outcomes, made once per cell: the agent is paired twice
		outcomesOf := func(c *cell) map[uint64]bool {
			if passed[c] == nil {
				passed[c] = outcomes(c, inputs, &keys)
			}
			return passed[c]
		}
		for _, p := range pairedTracks {
			a, b := byTask[task][p[0]], byTask[task][p[1]]
			if a == nil || b == nil || len(a.entries) == 0 || len(b.entries) == 0 {
				continue // a cell of lost episodes only has nothing to compare
			}
			if r, ok := ratio(a, b); ok {
				ratios = append(ratios, r)
			}
			m := mcnemar(a, b, outcomesOf(a), outcomesOf(b))
			if m.Pairs == 0 {
				notes.add(fmt.Sprintf("%s: no pair of %s and %s episodes: episodes pair only within one run (same run, task, seed and repeat), so no McNemar test", task.task, m.A, m.B))
			}
			tests = append(tests, m)
		}
	}
	return ratios, tests
}

// ratio compares the median tokens of num and den: backend-reported tokens
// when both medians are positive, else the offline estimate; no ratio when
// neither basis has a positive denominator. The bootstrap interval is left
// out when it is unbounded: when den holds episodes with 0 tokens (ended
// before any reply), enough resamples have a median of 0.
func ratio(num, den *cell) (Ratio, bool) {
	r := Ratio{Task: num.task, Model: num.model, Num: num.track, Den: den.track, NumN: len(num.entries), DenN: len(den.entries)}
	for _, basis := range []string{"reported", "estimated"} {
		xs, ys := tokensOf(num, basis == "estimated"), tokensOf(den, basis == "estimated")
		mx, my := median(xs), median(ys)
		if mx <= 0 || my <= 0 {
			continue
		}
		r.Basis, r.NumMedian, r.DenMedian, r.Ratio = basis, mx, my, mx/my
		if len(xs) > 1 && len(ys) > 1 {
			iv := RatioInterval(xs, ys, seedFor(num.task+"/"+num.track+"/"+den.track))
			if finite(iv.Low) && finite(iv.High) { // a resample of ys can have median 0
				r.Interval = &iv
			}
		}
		return r, true
	}
	return r, false
}

// outcomes maps a cell's episodes to whether they passed, by their run,
// seed and repeat (keys numbers them). Episodes of different runs never
// pair: they may differ in settings, and the seeds of two runs are not
// matched draws.
func outcomes(c *cell, inputs []record.Outcomes, keys *packedKeys) map[uint64]bool {
	runs := firstOfRun(inputs)
	m := make(map[uint64]bool, len(c.entries))
	for _, e := range c.entries {
		m[keys.of(smallKey{runs[e.run], e.ep.Seed, e.ep.Repeat})] = e.pass
	}
	return m
}

// firstOfRun maps each input to the first input with its run id: inputs
// with the same id hold one run.
func firstOfRun(inputs []record.Outcomes) []int {
	first := make([]int, len(inputs))
	for i := range inputs {
		first[i] = slices.IndexFunc(inputs, func(in record.Outcomes) bool { return in.Run.ID == inputs[i].Run.ID })
	}
	return first
}

// mcnemar pairs the episodes of a and b (their outcomes am and bm) by
// run, seed and repeat and tests them.
func mcnemar(a, b *cell, am, bm map[uint64]bool) McNemar {
	t := McNemar{Task: a.task, Model: a.model, A: a.track, B: b.track}
	for k, pa := range am {
		pb, ok := bm[k]
		if !ok {
			continue
		}
		t.Pairs++
		switch {
		case pa && pb:
			t.BothPass++
		case pa:
			t.OnlyA++
		case pb:
			t.OnlyB++
		default:
			t.BothFail++
		}
	}
	t.P = McNemarExact(t.OnlyA, t.OnlyB)
	return t
}

// finite reports whether x is neither infinite nor NaN.
func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
