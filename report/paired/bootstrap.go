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
// hundreds of thousands of pairs 2000 times).
func bootstrap(strata []*stratum, overTasks bool, resamples int, rng *rand.Rand) replicates {
	r := replicates{make([]float64, resamples), make([]float64, resamples), make([]float64, resamples)}
	tok, turn := newTallies(strata, tokensOf), newTallies(strata, turnsOf)
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
			s := strata[si]
			tk, tn := &tok.ranks[si], &turn.ranks[si]
			if s.paired() {
				for range s.pairs {
					j := rng.IntN(len(s.pairs))
					p := &s.pairs[j]
					num += (float64(b2i(p.new.passed)) - float64(b2i(p.old.passed))) / 2
					weight += 0.5
					tok.old.add(tk.pairOld[j])
					tok.new.add(tk.pairNew[j])
					turn.old.add(tn.pairOld[j])
					turn.new.add(tn.pairNew[j])
				}
				continue
			}
			n0, n1 := len(s.onlyOld), len(s.onlyNew)
			pass0, pass1 := 0, 0
			for range n0 {
				j := rng.IntN(n0)
				pass0 += b2i(s.onlyOld[j].passed)
				tok.old.add(tk.onlyOld[j])
				turn.old.add(tn.onlyOld[j])
			}
			for range n1 {
				j := rng.IntN(n1)
				pass1 += b2i(s.onlyNew[j].passed)
				tok.new.add(tk.onlyNew[j])
				turn.new.add(tn.onlyNew[j])
			}
			w := float64(n0*n1) / float64(n0+n1)
			num += w * (float64(pass1)/float64(n1) - float64(pass0)/float64(n0))
			weight += w
		}
		r.diff[b] = num / weight
		r.tokens[b] = tok.new.median(tok.values) / tok.old.median(tok.values)
		r.turns[b] = turn.new.median(turn.values) / turn.old.median(turn.values)
	}
	return r
}

// tallies are, for one measure (tokens or turns), its distinct values
// over the strata, ascending, each observation's rank among them, and the
// count of each value drawn on each side in the resample being drawn.
type tallies struct {
	values   []float64
	ranks    []strataRanks // per stratum
	old, new tally
}

// strataRanks are the ranks of one stratum's observations, parallel to
// its pairs, onlyOld and onlyNew.
type strataRanks struct {
	pairOld, pairNew, onlyOld, onlyNew []int32
}

// tally counts the draws of each value of one side.
type tally struct {
	counts []int32
	n      int
}

// newTallies ranks the values of the measure value over the strata.
func newTallies(strata []*stratum, value func(obs) float64) *tallies {
	seen := map[float64]bool{}
	each := func(f func(float64)) {
		for _, s := range strata {
			for _, p := range s.pairs {
				f(value(p.old))
				f(value(p.new))
			}
			for _, o := range s.onlyOld {
				f(value(o))
			}
			for _, o := range s.onlyNew {
				f(value(o))
			}
		}
	}
	t := &tallies{}
	each(func(v float64) {
		if !seen[v] {
			seen[v] = true
			t.values = append(t.values, v)
		}
	})
	slices.Sort(t.values)
	rank := make(map[float64]int32, len(t.values))
	for i, v := range t.values {
		rank[v] = int32(i)
	}
	ranksOf := func(os []obs) []int32 {
		out := make([]int32, len(os))
		for i, o := range os {
			out[i] = rank[value(o)]
		}
		return out
	}
	for _, s := range strata {
		var r strataRanks
		for _, p := range s.pairs {
			r.pairOld, r.pairNew = append(r.pairOld, rank[value(p.old)]), append(r.pairNew, rank[value(p.new)])
		}
		r.onlyOld, r.onlyNew = ranksOf(s.onlyOld), ranksOf(s.onlyNew)
		t.ranks = append(t.ranks, r)
	}
	t.old.counts, t.new.counts = make([]int32, len(t.values)), make([]int32, len(t.values))
	return t
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
