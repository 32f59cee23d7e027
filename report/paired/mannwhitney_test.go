package paired

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestMannWhitneyScipyPublishedValues(t *testing.T) {
	// scipy.stats.mannwhitneyu's docstring (SciPy 1.7 and later):
	// mannwhitneyu(males, females, method="exact") → U1 = 17, p =
	// 0.1111111111111111; method="asymptotic" (use_continuity=True) →
	// 0.11134688653314041; use_continuity=False → 0.0864107329737.
	males := []float64{19, 22, 16, 29, 24}
	females := []float64{20, 11, 17, 12}
	if got := MannWhitney(males, females); got.Name != TestMannWhitneyExact || !near(got.P, 0.1111111111111111, 1e-15) {
		t.Errorf("exact = %+v, want p 0.1111111111111111", got)
	}
	if got := mannWhitneyNormal(males, females, true).P; !near(got, 0.11134688653314041, 1e-14) {
		t.Errorf("normal, continuity corrected = %.17g, want 0.11134688653314041", got)
	}
	if got := mannWhitneyNormal(males, females, false).P; !near(got, 0.0864107329737, 1e-12) {
		t.Errorf("normal, uncorrected = %.13g, want 0.0864107329737", got)
	}
}

func TestMannWhitneyAgainstEnumeration(t *testing.T) {
	cases := [][2][]float64{
		{{1, 2, 3}, {4, 5, 6}},
		{{1, 1, 2, 2}, {2, 3, 3}},
		{{5}, {5}},
		{{5}, {6}},
		{{7, 7, 7}, {7, 7}},
		{{1, 2, 3, 4, 5, 6, 7}, {0}},
		{nil, {1, 2}},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 30 {
		a, b := make([]float64, 1+rng.IntN(7)), make([]float64, 1+rng.IntN(7))
		for i := range a {
			a[i] = float64(rng.IntN(5))
		}
		for i := range b {
			b[i] = float64(rng.IntN(6))
		}
		cases = append(cases, [2][]float64{a, b})
	}
	for _, c := range cases {
		got := MannWhitney(c[0], c[1])
		want := 1.0
		if len(c[0]) > 0 && len(c[1]) > 0 {
			want = enumRankSum(t, c[0], c[1])
		}
		if !near(got.P, want, 1e-12) {
			t.Errorf("MannWhitney(%v, %v).P = %.15g, enumeration gives %.15g", c[0], c[1], got.P, want)
		}
	}
}

func TestMannWhitneyNormalMatchesScipyFormula(t *testing.T) {
	// Above ExactMax: U = R1 − n1(n1+1)/2, σ² = n1·n2/12·((n+1) −
	// Σ(t³−t)/(n(n−1))), p = 2·Φ(−(|U − n1·n2/2| − ½)/σ), as scipy's
	// _get_mwu_z computes it.
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 10 {
		a, b := make([]float64, 20+rng.IntN(30)), make([]float64, 31+rng.IntN(30))
		for i := range a {
			a[i] = float64(rng.IntN(8))
		}
		for i := range b {
			b[i] = float64(rng.IntN(9))
		}
		all := append(append([]float64{}, a...), b...)
		r1 := 0.0
		for i := range a {
			r1 += float64(naiveDoubledRank(all, i)) / 2
		}
		n1, n2, n := float64(len(a)), float64(len(b)), float64(len(all))
		ties := 0.0
		for v := 0.0; v < 9; v++ {
			c := 0.0
			for _, x := range all {
				if x == v {
					c++
				}
			}
			ties += c*c*c - c
		}
		u := r1 - n1*(n1+1)/2
		sigma := math.Sqrt(n1 * n2 / 12 * ((n + 1) - ties/(n*(n-1))))
		want := math.Min(1, 2*distuv.UnitNormal.Survival(math.Max(0, math.Abs(u-n1*n2/2)-0.5)/sigma))
		got := MannWhitney(a, b)
		if got.Name != TestMannWhitneyNormal || !near(got.P, want, 1e-12) {
			t.Errorf("trial %d: %+v, want normal p %.15g", trial, got, want)
		}
	}
}

func TestMannWhitneyMinimumP(t *testing.T) {
	// Without ties the smallest two-sided p is 2/C(n1+n2, n1).
	got := MannWhitney([]float64{1, 2, 3}, []float64{4, 5, 6})
	if !near(got.MinP, 2.0/20, 1e-12) || !near(got.P, 0.1, 1e-12) {
		t.Errorf("3 against 3 separated: %+v, want p and min p 0.1", got)
	}
	if got := MannWhitney([]float64{3, 3}, []float64{3, 3}); got.P != 1 || got.MinP != 1 {
		t.Errorf("all equal: %+v, want p 1 and min p 1", got)
	}
}
