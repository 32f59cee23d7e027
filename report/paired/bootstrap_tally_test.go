package paired

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bootstrapBySort is the bootstrap as it was written first: each
// resample's values appended and sorted for their medians. It stands as
// the independent recomputation the tallies are checked against.
func bootstrapBySort(strata []*stratum, overTasks bool, resamples int, rng *rand.Rand) replicates {
	r := replicates{make([]float64, resamples), make([]float64, resamples), make([]float64, resamples)}
	median := func(xs []float64) float64 {
		if len(xs) == 0 {
			return math.NaN()
		}
		slices.Sort(xs)
		return (xs[(len(xs)-1)/2] + xs[len(xs)/2]) / 2
	}
	drawn := make([]*stratum, len(strata))
	for b := range resamples {
		var oldTok, newTok, oldTurn, newTurn []float64
		copy(drawn, strata)
		if overTasks && len(strata) > 1 {
			for i := range drawn {
				drawn[i] = strata[rng.IntN(len(strata))]
			}
		}
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
		r.tokens[b] = median(newTok) / median(oldTok)
		r.turns[b] = median(newTurn) / median(oldTurn)
	}
	return r
}

// randomStrata draws strata of every shape: paired, unpaired, one side
// empty, few or many distinct values, zeros (unbounded ratios).
func randomStrata(rng *rand.Rand) []*stratum {
	var out []*stratum
	for range 1 + rng.IntN(5) {
		spread := []int{1, 3, 50, 100000}[rng.IntN(4)]
		o := func() obs {
			return obs{rng.IntN(2) == 0, float64(rng.IntN(spread)), float64(rng.IntN(min(spread, 26)))}
		}
		s := &stratum{}
		if rng.IntN(3) > 0 {
			for range 1 + rng.IntN(40) {
				s.pairs = append(s.pairs, pair{rng.IntN(10), o(), o()})
			}
		} else {
			for range 1 + rng.IntN(20) {
				s.onlyOld = append(s.onlyOld, o())
			}
			for range 1 + rng.IntN(20) {
				s.onlyNew = append(s.onlyNew, o())
			}
		}
		out = append(out, s)
	}
	return out
}

// TestBootstrapTalliesAgainstSort checks that the bootstrap's medians by
// tallies give, bit for bit, the replicates of sorting each resample, on
// the same stream, over strata of every shape, one stage and two.
func TestBootstrapTalliesAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool {
			return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
		})
	}
	for trial := range 300 {
		strata := randomStrata(rng)
		for _, overTasks := range []bool{false, true} {
			got := bootstrap(strata, overTasks, 50, rand.New(rand.NewPCG(uint64(trial), 1)))
			want := bootstrapBySort(strata, overTasks, 50, rand.New(rand.NewPCG(uint64(trial), 1)))
			if !same(got.diff, want.diff) || !same(got.tokens, want.tokens) || !same(got.turns, want.turns) {
				t.Fatalf("trial %d (over tasks %v): replicates differ from sorting's\ngot  %v %v\nwant %v %v", trial, overTasks, got.tokens[:5], got.turns[:5], want.tokens[:5], want.turns[:5])
			}
		}
	}
}
