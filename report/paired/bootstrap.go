package paired

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Bootstrap interval methods.
const (
	IntervalNewcombePaired      = "newcombe-paired"
	IntervalNewcombeIndependent = "newcombe-independent"
	IntervalBootstrapSeeds      = "bootstrap-seeds"       // one cell: its pairs (or each side's episodes) resampled
	IntervalBootstrapTasks      = "bootstrap-tasks-seeds" // a pool: tasks resampled, then each task's pairs
)

// FewTasks is the number of tasks below which a pooled bootstrap over
// tasks carries a caveat: resampling so few clusters gives a rough
// interval that says little about other tasks.
const FewTasks = 10

// replicates holds one statistic per bootstrap resample: the
// Mantel-Haenszel difference in pass rate and the ratios of the median
// tokens and turns (NaN or ±Inf when a resample's old median is 0).
type replicates struct {
	diff, tokens, turns []float64
}

// streamFor is the bootstrap generator of one result: seeded by the
// options' seed and the result's label, so that every cell has its own
// stream and the same data give the same intervals.
func streamFor(seed uint64, label string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(label))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// bootstrap draws resamples of the strata. With overTasks and more than
// one stratum it is two-stage: the strata are drawn with replacement, then
// within each drawn stratum its pairs (or, unpaired, each side's episodes)
// with replacement; else only the second stage. A resample's medians are
// found by counting how often each distinct value is drawn (tallies), not
// by sorting the values drawn: the same medians, from the same draws, in
// time linear in the resample (a report over a million episodes resamples
// hundreds of thousands of pairs 2000 times). What a draw reads of a pair
// or an episode is packed in one small record (draw), as the draws jump
// across the whole sample.
func bootstrap(strata []*stratum, overTasks bool, resamples int, rng *rand.Rand) replicates {
	r := replicates{make([]float64, resamples), make([]float64, resamples), make([]float64, resamples)}
	t := newTallies(strata)
	drawn := make([]int, len(strata))
	for b := range resamples {
		for i := range drawn {
			drawn[i] = i
		}
		if overTasks && len(strata) > 1 {
			for i := range drawn {
				drawn[i] = rng.IntN(len(strata))
			}
		}
		num, weight := 0.0, 0.0
		for _, si := range drawn {
			s := &t.strata[si]
			if n := len(s.pairs); n > 0 {
				for range n {
					d := &s.pairs[rng.IntN(n)]
					num += float64(d.passed) / 2 // the new pass minus the old, as (new − old)/2 in float64 gives it
					weight += 0.5
					t.oldTok.add(d.oldTok)
					t.newTok.add(d.newTok)
					t.oldTurn.add(d.oldTurn)
					t.newTurn.add(d.newTurn)
				}
				continue
			}
			n0, n1 := len(s.onlyOld), len(s.onlyNew)
			pass0, pass1 := 0, 0
			for range n0 {
				d := &s.onlyOld[rng.IntN(n0)]
				pass0 += int(d.passed)
				t.oldTok.add(d.oldTok)
				t.oldTurn.add(d.oldTurn)
			}
			for range n1 {
				d := &s.onlyNew[rng.IntN(n1)]
				pass1 += int(d.passed)
				t.newTok.add(d.newTok)
				t.newTurn.add(d.newTurn)
			}
			w := float64(n0*n1) / float64(n0+n1)
			num += w * (float64(pass1)/float64(n1) - float64(pass0)/float64(n0))
			weight += w
		}
		r.diff[b] = num / weight
		r.tokens[b] = t.newTok.median(t.tokens) / t.oldTok.median(t.tokens)
		r.turns[b] = t.newTurn.median(t.turns) / t.oldTurn.median(t.turns)
	}
	return r
}

// tallies are the strata as the bootstrap draws them: the distinct values
// of tokens and of turns, ascending, each observation as its values'
// ranks among them (draw), and the count of each value drawn on each side
// in the resample being drawn.
type tallies struct {
	tokens, turns    []float64
	strata           []drawStratum
	oldTok, newTok   tally
	oldTurn, newTurn tally
}

// drawStratum is one stratum's pairs, and episodes without a pair, as
// draws, in its order.
type drawStratum struct{ pairs, onlyOld, onlyNew []draw }

// draw is what a resample reads of a pair (or of one side's episode,
// which fills that side's ranks only): the ranks of its tokens and turns,
// and its passes, new minus old for a pair (−1, 0 or 1), else 1 for a
// pass.
type draw struct {
	oldTok, newTok, oldTurn, newTurn int32
	passed                           int8
}

// tally counts the draws of each value of one measure on one side.
type tally struct {
	counts []int32
	n      int
}

// newTallies ranks the values of the strata.
func newTallies(strata []*stratum) *tallies {
	tokRank, tokens := ranksOf(strata, tokensOf)
	turnRank, turns := ranksOf(strata, turnsOf)
	t := &tallies{tokens: tokens, turns: turns}
	side := func(os []obs, newSide bool) []draw {
		out := make([]draw, len(os))
		for i, o := range os {
			d := draw{passed: int8(b2i(o.passed))}
			if newSide {
				d.newTok, d.newTurn = tokRank[o.tokens], turnRank[o.turns]
			} else {
				d.oldTok, d.oldTurn = tokRank[o.tokens], turnRank[o.turns]
			}
			out[i] = d
		}
		return out
	}
	for _, s := range strata {
		ds := drawStratum{pairs: make([]draw, len(s.pairs)), onlyOld: side(s.onlyOld, false), onlyNew: side(s.onlyNew, true)}
		for i, p := range s.pairs {
			ds.pairs[i] = draw{tokRank[p.old.tokens], tokRank[p.new.tokens], turnRank[p.old.turns], turnRank[p.new.turns], int8(b2i(p.new.passed) - b2i(p.old.passed))}
		}
		t.strata = append(t.strata, ds)
	}
	t.oldTok.counts, t.newTok.counts = make([]int32, len(tokens)), make([]int32, len(tokens))
	t.oldTurn.counts, t.newTurn.counts = make([]int32, len(turns)), make([]int32, len(turns))
	return t
}

// ranksOf returns the distinct values of the measure value over the
// strata, ascending, and the rank of each.
func ranksOf(strata []*stratum, value func(obs) float64) (map[float64]int32, []float64) {
	rank := map[float64]int32{}
	var values []float64
	see := func(o obs) {
		if _, ok := rank[value(o)]; !ok {
			rank[value(o)] = 0
			values = append(values, value(o))
		}
	}
	for _, s := range strata {
		for _, p := range s.pairs {
			see(p.old)
			see(p.new)
		}
		for _, o := range s.onlyOld {
			see(o)
		}
		for _, o := range s.onlyNew {
			see(o)
		}
	}
	slices.Sort(values)
	for i, v := range values {
		rank[v] = int32(i)
	}
	return rank, values
}

// add counts one draw of the value of rank r.
func (t *tally) add(r int32) {
	t.counts[r]++
	t.n++
}

// median is the median of the values drawn (as medianOf has it: the
// midpoint of the two middle values for an even count; NaN for none),
// values being the values ranked; it clears the tally for the next
// resample.
func (t *tally) median(values []float64) float64 {
	if t.n == 0 {
		return math.NaN()
	}
	lo, hi := (t.n-1)/2, t.n/2 // the places of the two middle values in sorted order
	var vlo, vhi float64
	seen := 0
	for r, c := range t.counts {
		if c == 0 {
			continue
		}
		if seen <= lo && lo < seen+int(c) {
			vlo = values[r]
		}
		if seen <= hi && hi < seen+int(c) {
			vhi = values[r]
			break
		}
		seen += int(c)
	}
	clear(t.counts)
	t.n = 0
	return (vlo + vhi) / 2
}

// percentile is the percentile-bootstrap interval of the replicates at the
// confidence level, or false when a replicate is not finite (a resample
// whose old median is 0: the interval is unbounded).
func percentile(xs []float64, confidence float64) (Interval, bool) {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Interval{}, false
		}
	}
	sorted := slices.Sorted(slices.Values(xs))
	a := (1 - confidence) / 2
	return Interval{Low: empiricalQuantile(sorted, a), High: empiricalQuantile(sorted, 1-a)}, true
}

// empiricalQuantile is the smallest value x of sorted with F(x) ≥ q, F the
// empirical distribution function: the ⌈q·n⌉-th value, q·n rounded to
// absorb the rounding of q itself (1 − 0.95 is not 0.05 in binary).
func empiricalQuantile(sorted []float64, q float64) float64 {
	n := float64(len(sorted))
	k := int(math.Ceil(math.Round(q*n*1e6)/1e6)) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}

// medianOf is the median of xs (the midpoint of the two middle values for
// even n), reordering xs; NaN when it is empty.
func medianOf(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	return (xs[(n-1)/2] + xs[n/2]) / 2
}
