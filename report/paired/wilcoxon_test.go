package paired

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// darwin is Fisher's data on Darwin's maize as scipy.stats.wilcoxon's
// docstring gives it: the differences in height of 15 pairs.
var darwin = []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}

func zeros(n int) []float64 { return make([]float64, n) }

func TestSignedRankScipyPublishedValues(t *testing.T) {
	// scipy.stats.wilcoxon(d) → (24.0, 0.041259765625): exact, no ties or
	// zeros; wilcoxon(d, method='asymptotic') → (24.0,
	// 0.04088813291185591): normal, correction=False. The docstring
	// example of SciPy 1.15 and later.
	got := signedRank(zeros(len(darwin)), darwin)
	if got.Name != TestWilcoxonExact || !near(got.P, 0.041259765625, 1e-15) {
		t.Errorf("signedRank(darwin) = %+v, want exact p 0.041259765625", got)
	}
	normal := signedRankNormal([]signedRanks{rankDifferences(zeros(len(darwin)), darwin)}, false)
	if !near(normal.P, 0.04088813291185591, 1e-13) {
		t.Errorf("normal approximation without correction = %.17g, want 0.04088813291185591", normal.P)
	}
	// With the continuity correction: R− = 24, mean 60, variance 15·16·31/24
	// = 310, z = (60 − 24 − ½)/√310.
	want := 2 * distuv.UnitNormal.Survival(35.5/math.Sqrt(310))
	if c := signedRankNormal([]signedRanks{rankDifferences(zeros(len(darwin)), darwin)}, true); !near(c.P, want, 1e-14) {
		t.Errorf("normal approximation with correction = %v, want %v", c.P, want)
	}
}

func TestSignedRankAgainstEnumeration(t *testing.T) {
	cases := []struct {
		name     string
		old, new []float64
	}{
		{"no ties", []float64{0, 0, 0, 0, 0, 0}, []float64{1, -2, 3, 4, 5, 6}},
		{"ties", []float64{10, 10, 10, 10, 10, 10, 10}, []float64{12, 12, 8, 13, 13, 13, 7}},
		{"zeros (Pratt)", []float64{5, 5, 5, 5, 5, 5, 5, 5}, []float64{5, 5, 6, 7, 3, 8, 5, 9}},
		{"zeros and ties", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []float64{1, 2, 4, 5, 4, 8, 9, 10, 9}},
		{"turns, mostly equal", []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, []float64{3, 3, 3, 4, 4, 3, 5, 3, 4, 3}},
		{"one pair", []float64{100}, []float64{140}},
		{"two pairs", []float64{100, 200}, []float64{140, 150}},
		{"all equal", []float64{7, 7, 7}, []float64{7, 7, 7}},
		{"empty", nil, nil},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 40 { // random small samples with many ties and zeros
		n := 1 + rng.IntN(14)
		old, new := make([]float64, n), make([]float64, n)
		for j := range n {
			old[j] = float64(rng.IntN(4))
			new[j] = float64(rng.IntN(5))
		}
		cases = append(cases, struct {
			name     string
			old, new []float64
		}{name: "random " + string(rune('a'+i%26)), old: old, new: new})
	}
	for _, c := range cases {
		got := signedRank(c.old, c.new)
		want := enumSignedRank(t, c.old, c.new)
		if !near(got.P, want, 1e-12) {
			t.Errorf("%s: signedRank(%v, %v).P = %.15g, enumeration gives %.15g", c.name, c.old, c.new, got.P, want)
		}
		if got.N != len(c.old) {
			t.Errorf("%s: n = %d, want %d (zeros counted)", c.name, got.N, len(c.old))
		}
	}
}

func TestSignedRankPrattDiffersFromWilcox(t *testing.T) {
	// Pratt ranks the zeros: with three zeros the non-zero differences 1,
	// 2, 3, 4, −5 get ranks 4 … 8, not 1 … 5 as Wilcoxon's method (dropping
	// the zeros first) would. The p-values (0.375 and 0.625, both by
	// enumeration) differ: the zero method is part of the test.
	old, new := zeros(8), []float64{0, 0, 0, 1, 2, 3, 4, -5}
	pratt := signedRank(old, new).P
	if want := enumSignedRank(t, old, new); !near(pratt, want, 1e-12) || !near(pratt, 0.375, 1e-12) {
		t.Fatalf("Pratt p = %v, enumeration %v, want 0.375", pratt, want)
	}
	if wilcox := enumSignedRank(t, old[3:], new[3:]); !near(wilcox, 0.625, 1e-12) {
		t.Errorf("Wilcoxon's method p = %v by enumeration, want 0.625", wilcox)
	}
}

func TestSignedRankMinimumP(t *testing.T) {
	for n := 1; n <= 8; n++ {
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(i + 1)
		}
		got := signedRank(zeros(n), d)
		want := math.Min(1, 2/math.Pow(2, float64(n)))
		if !near(got.P, want, 1e-12) || !near(got.MinP, want, 1e-12) {
			t.Errorf("n = %d all positive: p %v min %v, want both %v", n, got.P, got.MinP, want)
		}
	}
	// Ties do not change the extreme: all of them positive is one outcome.
	if got := signedRank(zeros(6), []float64{2, 2, 2, 2, 2, 2}); !near(got.MinP, 2.0/64, 1e-12) {
		t.Errorf("six tied positive differences: min p %v, want 2/64", got.MinP)
	}
}

// scipyPrattVariance is the variance of R+ as scipy.stats.wilcoxon
// computes it for zero_method="pratt" (Cureton's adjustment and the tie
// correction over the non-zero differences): (n(n+1)(2n+1) −
// z(z+1)(2z+1) − ½Σ(t³−t))/24, n pairs, z zeros.
func scipyPrattVariance(old, new []float64) (mean, variance float64) {
	n, z := 0.0, 0.0
	var abs []float64
	for i := range old {
		n++
		if old[i] == new[i] {
			z++
			continue
		}
		abs = append(abs, math.Abs(new[i]-old[i]))
	}
	ties := 0.0
	seen := map[float64]bool{}
	for _, a := range abs {
		if seen[a] {
			continue
		}
		seen[a] = true
		t := 0.0
		for _, b := range abs {
			if b == a {
				t++
			}
		}
		ties += t*t*t - t
	}
	mean = (n*(n+1) - z*(z+1)) / 4
	variance = (n*(n+1)*(2*n+1) - z*(z+1)*(2*z+1) - ties/2) / 24
	return mean, variance
}

func TestSignedRankNormalMatchesScipyFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		n := 51 + rng.IntN(100)
		old, new := make([]float64, n), make([]float64, n)
		for j := range n {
			old[j] = float64(rng.IntN(6))
			new[j] = float64(rng.IntN(7))
		}
		got := signedRank(old, new)
		if got.Name != TestWilcoxonNormal {
			t.Fatalf("n = %d: test %s, want the normal approximation above ExactMax", n, got.Name)
		}
		mean, variance := scipyPrattVariance(old, new)
		rPlus := 0.0
		for j := range n {
			if new[j] > old[j] {
				abs := make([]float64, n)
				for k := range n {
					abs[k] = math.Abs(new[k] - old[k])
				}
				rPlus += float64(naiveDoubledRank(abs, j)) / 2
			}
		}
		z := math.Max(0, math.Abs(rPlus-mean)-0.5) / math.Sqrt(variance)
		want := math.Min(1, 2*distuv.UnitNormal.Survival(z))
		if !near(got.P, want, 1e-12) {
			t.Errorf("trial %d (n %d): p = %.15g, scipy's formula gives %.15g", trial, n, got.P, want)
		}
	}
}

func TestSignedRankExactAtTheBoundary(t *testing.T) {
	// At n = ExactMax the exact distribution is used; one pair more, the
	// normal one; both close to each other on the same kind of data.
	mk := func(n int) ([]float64, []float64) {
		old, new := make([]float64, n), make([]float64, n)
		for i := range n {
			old[i], new[i] = 100, 100+float64((i*7)%11)-4
		}
		return old, new
	}
	a, b := mk(ExactMax)
	exact := signedRank(a, b)
	c, d := mk(ExactMax + 1)
	normal := signedRank(c, d)
	if exact.Name != TestWilcoxonExact || normal.Name != TestWilcoxonNormal {
		t.Fatalf("names %s and %s, want exact at n = %d and normal above", exact.Name, normal.Name, ExactMax)
	}
	ex := signedRankExact([]signedRanks{rankDifferences(c, d)})
	if !near(ex.P, normal.P, 0.02) {
		t.Errorf("n = %d: exact %v and normal %v differ by more than 0.02", ExactMax+1, ex.P, normal.P)
	}
}

func TestStratifiedSignedRankAgainstEnumeration(t *testing.T) {
	strata := [][2][]float64{
		{{100, 120, 130, 90}, {150, 110, 180, 95}},                      // tokens of a large task
		{{10, 12, 11}, {11, 12, 15}},                                    // a small one, with a zero
		{{5, 5}, {5, 5}},                                                // all equal: contributes nothing
		{{1000, 1000, 1000, 1000, 1000}, {900, 1100, 1200, 1300, 1000}}, // ties and a zero
	}
	var ranks []signedRanks
	for _, s := range strata {
		ranks = append(ranks, rankDifferences(s[0], s[1]))
	}
	got := signedRankTest(ranks)
	if want := enumStratifiedSignedRank(t, strata); !near(got.P, want, 1e-12) {
		t.Errorf("stratified p = %.15g, enumeration gives %.15g", got.P, want)
	}
	if got.Name != TestStratifiedWilcoxon || got.N != 14 {
		t.Errorf("stratified test %+v, want %s over 14 pairs", got, TestStratifiedWilcoxon)
	}
	// One stratum is the plain test.
	one := signedRankTest(ranks[:1])
	if plain := signedRank(strata[0][0], strata[0][1]); one.P != plain.P || one.Name != TestWilcoxonExact {
		t.Errorf("one stratum %+v, plain %+v", one, plain)
	}
}

func TestStratifiedSignedRankRanksWithinStrata(t *testing.T) {
	// Pooling the differences into one sample would let the large task's
	// big differences outrank the small task's: ranked within strata, a
	// small task whose every pair rose counts as much as its size.
	big := [2][]float64{{1000, 1000, 1000}, {900, 950, 990}}          // three falls of a large task
	small := [2][]float64{{10, 10, 10, 10, 10}, {11, 12, 13, 14, 15}} // five rises of a small one
	strat := signedRankTest([]signedRanks{rankDifferences(big[0], big[1]), rankDifferences(small[0], small[1])})
	pooled := signedRank(append(append([]float64{}, big[0]...), small[0]...), append(append([]float64{}, big[1]...), small[1]...))
	if want := enumStratifiedSignedRank(t, [][2][]float64{big, small}); !near(strat.P, want, 1e-12) {
		t.Fatalf("stratified p %v, enumeration %v", strat.P, want)
	}
	if near(strat.P, pooled.P, 1e-6) {
		t.Errorf("stratified and unstratified p agree (%v): ranks were not taken within strata", strat.P)
	}
}

// signedRank is the signed-rank test of one cell's pairs as Compare runs
// it: the differences ranked (rankDifferences), one stratum tested.
func signedRank(old, new []float64) Test {
	return signedRankTest([]signedRanks{rankDifferences(old, new)})
}
