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
// resample's pairs (or episodes) drawn one by one, its values appended and
// sorted for their medians, one resample after another on one goroutine.
// It stands as the independent recomputation that the bootstrap, which
// draws counts, is checked against in law (TestBootstrapAgainstPairByPair):
// the two draw differently from the same streams, so they agree in
// distribution, not replicate by replicate.
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

// sameLaw fails t when a two-sample Kolmogorov-Smirnov test rejects, at
// p < 10⁻⁶, that the replicates got and want (of one statistic) come from
// one distribution. NaN (a resample of no old or no new value, or 0/0)
// counts as a value above +Inf. The test is conservative for discrete
// laws, which these are: a difference it finds is real.
func sameLaw(t *testing.T, what string, got, want []float64) {
	t.Helper()
	key := func(x float64) float64 {
		if math.IsNaN(x) {
			return math.MaxFloat64 // above every finite value; +Inf sorts above it, which orders NaN below +Inf: one order for both samples is all the test needs
		}
		return x
	}
	a, b := make([]float64, len(got)), make([]float64, len(want))
	for i, x := range got {
		a[i] = key(x)
	}
	for i, x := range want {
		b[i] = key(x)
	}
	slices.Sort(a)
	slices.Sort(b)
	d, i, j := 0.0, 0, 0
	for i < len(a) && j < len(b) {
		v := min(a[i], b[j])
		for i < len(a) && a[i] == v {
			i++
		}
		for j < len(b) && b[j] == v {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	n, m := float64(len(a)), float64(len(b))
	if limit := math.Sqrt(-math.Log(1e-6/2)/2) * math.Sqrt((n+m)/(n*m)); d > limit {
		t.Errorf("%s: the distributions of the replicates differ (Kolmogorov-Smirnov D = %.4f > %.4f)", what, d, limit)
	}
}

// checkSameLaw compares the bootstrap's replicates of every statistic with
// the pair-by-pair reference's, drawn on other streams (another seed).
func checkSameLaw(t *testing.T, name string, strata []*stratum, overTasks bool, resamples int) {
	t.Helper()
	got := bootstrap(strata, overTasks, resamples, 1, name)
	want := bootstrapBySort(strata, overTasks, resamples, 2, name)
	sameLaw(t, name+": pass difference", got.diff, want.diff)
	sameLaw(t, name+": token ratio", got.tokens, want.tokens)
	sameLaw(t, name+": turn ratio", got.turns, want.turns)
}

// TestBootstrapAgainstPairByPair checks that drawing counts gives each
// statistic the law of drawing pairs one by one (bootstrapBySort), over
// strata of every shape, one stage and two.
func TestBootstrapAgainstPairByPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	trials, resamples := 40, 20_000
	if testing.Short() {
		trials, resamples = 5, 10_000
	}
	for trial := range trials {
		strata := randomStrata(rng)
		for _, overTasks := range []bool{false, true} {
			checkSameLaw(t, fmt.Sprintf("trial %d, over tasks %v", trial, overTasks), strata, overTasks, resamples)
		}
	}
}

// TestBootstrapBinnedAgainstPairByPair checks the same on strata large
// enough that the token ranks are cut into several bins (binCount), each
// cut into sub bins (subCount), where only the draws of the middle sub
// bins are drawn one by one: two paired
// tasks of 3,000 pairs (1,500 in short mode) whose tokens grow with the
// turns, and an unpaired one.
func TestBootstrapBinnedAgainstPairByPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	pairs, resamples := 3000, 6000
	if testing.Short() {
		pairs, resamples = 1500, 1000
	}
	var strata []*stratum
	for range 2 {
		s := &stratum{}
		for seed := range pairs {
			turns := float64(2 + rng.IntN(24))
			s.pairs = append(s.pairs, pair{seed, obs{rng.IntN(2) == 0, float64(2400 + rng.IntN(700)), 1}, obs{rng.IntN(5) > 0, 1400*turns + float64(rng.IntN(700)), turns}})
		}
		strata = append(strata, s)
	}
	u := &stratum{}
	for range 500 {
		u.onlyOld = append(u.onlyOld, obs{rng.IntN(3) == 0, float64(2000 + rng.IntN(900)), 1})
		u.onlyNew = append(u.onlyNew, obs{rng.IntN(3) > 0, float64(3000 + rng.IntN(9000)), float64(1 + rng.IntN(9))})
	}
	strata = append(strata, u)
	if d := newDrawSet(strata); len(d.oldBins.start)-1 < 2 || d.sub < 2 {
		t.Fatalf("%d bins of %d sub bins: the test lost its point", len(d.oldBins.start)-1, d.sub)
	}
	checkSameLaw(t, "binned, over tasks", strata, true, resamples)
	checkSameLaw(t, "binned, one paired task", strata[:1], false, resamples)
	checkSameLaw(t, "binned, one unpaired task", strata[2:], false, resamples)
}

// TestBootstrapSameOnAnyWorkers checks that a comparison large enough to
// be drawn on several workers gives the same intervals, digit for digit,
// and the same replicates, at GOMAXPROCS 1, 2 and 4.
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
	for i, procs := range []int{1, 2, 4} {
		if jsons[i] != jsons[0] {
			t.Errorf("GOMAXPROCS %d: the comparison differs from GOMAXPROCS 1's", procs)
		}
		if !slices.Equal(reps[i].diff, reps[0].diff) || !slices.Equal(reps[i].tokens, reps[0].tokens) || !slices.Equal(reps[i].turns, reps[0].turns) {
			t.Errorf("GOMAXPROCS %d: the replicates differ from GOMAXPROCS 1's", procs)
		}
	}
}
