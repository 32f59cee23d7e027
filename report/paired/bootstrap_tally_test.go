package paired

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// bootstrapBySort is the bootstrap as it was written first: each
// resample's values appended and sorted for their medians, one resample
// after another on one goroutine. It stands as the independent
// recomputation the tallies and the workers are checked against: it draws
// from the same streams in the same order, so it must give the same
// replicates bit for bit.
func bootstrapBySort(strata []*stratum, overTasks bool, resamples int, seed uint64, label string) replicates {
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
		rng := newStream(seed, label, b)
		var oldTok, newTok, oldTurn, newTurn []float64
		copy(drawn, strata)
		if overTasks && len(strata) > 1 {
			for i := range drawn {
				drawn[i] = strata[rng.intN(len(strata))]
			}
		}
		num, weight, change := 0.0, 0.0, 0
		for _, s := range drawn {
			if s.paired() {
				for range s.pairs {
					p := s.pairs[rng.intN(len(s.pairs))]
					change += b2i(p.new.passed) - b2i(p.old.passed)
					oldTok, newTok = append(oldTok, p.old.tokens), append(newTok, p.new.tokens)
					oldTurn, newTurn = append(oldTurn, p.old.turns), append(newTurn, p.new.turns)
				}
				weight += float64(len(s.pairs)) / 2
				continue
			}
			n0, n1 := len(s.onlyOld), len(s.onlyNew)
			pass0, pass1 := 0, 0
			for range n0 {
				o := s.onlyOld[rng.intN(n0)]
				pass0 += b2i(o.passed)
				oldTok, oldTurn = append(oldTok, o.tokens), append(oldTurn, o.turns)
			}
			for range n1 {
				o := s.onlyNew[rng.intN(n1)]
				pass1 += b2i(o.passed)
				newTok, newTurn = append(newTok, o.tokens), append(newTurn, o.turns)
			}
			w := float64(n0*n1) / float64(n0+n1)
			num += w * (float64(pass1)/float64(n1) - float64(pass0)/float64(n0))
			weight += w
		}
		num += float64(change) / 2 // the pairs' (new − old)/2 summed as whole numbers, then halved
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
			label := fmt.Sprintf("trial %d", trial)
			got := bootstrap(strata, overTasks, 50, uint64(trial), label)
			want := bootstrapBySort(strata, overTasks, 50, uint64(trial), label)
			if !same(got.diff, want.diff) || !same(got.tokens, want.tokens) || !same(got.turns, want.turns) {
				t.Fatalf("trial %d (over tasks %v): replicates differ from sorting's\ngot  %v %v\nwant %v %v", trial, overTasks, got.tokens[:5], got.turns[:5], want.tokens[:5], want.turns[:5])
			}
		}
	}
}

// TestBootstrapSameOnAnyWorkers checks that a comparison large enough to
// be drawn on several workers gives the same intervals, digit for digit,
// at GOMAXPROCS 1, 2 and 4, and the replicates of bootstrapBySort, which
// draws the resamples one after another.
func TestBootstrapSameOnAnyWorkers(t *testing.T) {
	old, new := fourTasks()
	var strata []*stratum
	for range 3 { // 3 × 32 pairs, drawn 2000 times: above parallelDraws
		s, _, _ := pairUp(slices.Values(old), slices.Values(new), Options{})
		strata = append(strata, s...)
	}
	if n := len(strata) * 8 * 2 * DefaultResamples; n < parallelDraws {
		t.Fatalf("%d draws: below parallelDraws, the test would run on one worker", n)
	}
	var jsons []string
	var reps []replicates
	for _, procs := range []int{1, 2, 4} {
		prev := runtime.GOMAXPROCS(procs)
		c := mustCompare(t, old, new, Options{Seed: 3})
		reps = append(reps, bootstrap(strata, true, DefaultResamples, 3, "workers"))
		runtime.GOMAXPROCS(prev)
		j, _ := json.Marshal(c)
		jsons = append(jsons, string(j))
	}
	want := bootstrapBySort(strata, true, DefaultResamples, 3, "workers")
	for i, procs := range []int{1, 2, 4} {
		if jsons[i] != jsons[0] {
			t.Errorf("GOMAXPROCS %d: the comparison differs from GOMAXPROCS 1's", procs)
		}
		if !slices.Equal(reps[i].diff, want.diff) || !slices.Equal(reps[i].tokens, want.tokens) || !slices.Equal(reps[i].turns, want.turns) {
			t.Errorf("GOMAXPROCS %d: the replicates differ from drawing the resamples in turn", procs)
		}
	}
}

// TestHitsPastAByte checks that a pair drawn more often than a byte counts
// in one resample is tallied in full: its count wraps round, and the spill
// keeps the 256s.
func TestHitsPastAByte(t *testing.T) {
	s := &stratum{pairs: []pair{{1, obs{true, 10, 1}, obs{false, 20, 2}}, {2, obs{false, 30, 3}, obs{true, 40, 4}}}}
	d := newDrawSet([]*stratum{s})
	tl := d.newTallies()
	for range 700 {
		tl.hit(0, 0)
	}
	tl.hit(0, 1)
	change := d.addHits(tl)
	if change != -700+1 {
		t.Errorf("change in passes %d, want %d", change, -699)
	}
	if tl.oldTok.n != 701 || tl.oldTok.counts[0] != 700 || tl.newTok.counts[1] != 1 || tl.newTurn.counts[0] != 700 {
		t.Errorf("tallies %v %v %v of %d draws, want 700 and 1 of 701", tl.oldTok.counts, tl.newTok.counts, tl.newTurn.counts, tl.oldTok.n)
	}
	if tl.hits[0][0] != 0 || len(tl.spill[0]) != 0 {
		t.Error("the hits were not cleared for the next resample")
	}
}
