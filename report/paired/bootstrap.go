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
// with replacement; else only the second stage.
func bootstrap(strata []*stratum, overTasks bool, resamples int, rng *rand.Rand) replicates {
	r := replicates{make([]float64, resamples), make([]float64, resamples), make([]float64, resamples)}
	var oldTok, newTok, oldTurn, newTurn []float64
	drawn := make([]*stratum, len(strata))
	for b := range resamples {
		copy(drawn, strata)
		if overTasks && len(strata) > 1 {
			for i := range drawn {
				drawn[i] = strata[rng.IntN(len(strata))]
			}
		}
		oldTok, newTok, oldTurn, newTurn = oldTok[:0], newTok[:0], oldTurn[:0], newTurn[:0]
		num, weight := 0.0, 0.0
		for _, s := range drawn {
			if s.paired() {
				for range s.pairs {
					p := s.pairs[rng.IntN(len(s.pairs))]
					num += (float64(b2i(p.new.passed)) - float64(b2i(p.old.passed))) / 2
					weight += 0.5
					oldTok, newTok = append(oldTok, p.old.tokens), append(newTok, p.new.tokens)
					oldTurn, newTurn = append(oldTurn, p.old.turns), append(newTurn, p.new.turns)
				}
				continue
			}
			n0, n1 := len(s.onlyOld), len(s.onlyNew)
			pass0, pass1 := 0, 0
			for range n0 {
				o := s.onlyOld[rng.IntN(n0)]
				pass0 += b2i(o.passed)
				oldTok, oldTurn = append(oldTok, o.tokens), append(oldTurn, o.turns)
			}
			for range n1 {
				o := s.onlyNew[rng.IntN(n1)]
				pass1 += b2i(o.passed)
				newTok, newTurn = append(newTok, o.tokens), append(newTurn, o.turns)
			}
			w := float64(n0*n1) / float64(n0+n1)
			num += w * (float64(pass1)/float64(n1) - float64(pass0)/float64(n0))
			weight += w
		}
		r.diff[b] = num / weight
		r.tokens[b] = medianOf(newTok) / medianOf(oldTok)
		r.turns[b] = medianOf(newTurn) / medianOf(oldTurn)
	}
	return r
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
