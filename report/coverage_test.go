package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// tokenShapes are shapes of token counts, each as a draw of a count whose
// median is 1 (scaled by the true median): log-normal (the spread does not
// change a percentile bootstrap's coverage, which sees only ranks),
// exponential (a long tail) and uniform on [0.5, 1.5] (none).
var tokenShapes = map[string]func(*rand.Rand) float64{
	"log-normal":  func(r *rand.Rand) float64 { return math.Exp(0.7 * r.NormFloat64()) },
	"exponential": func(r *rand.Rand) float64 { return r.ExpFloat64() / math.Ln2 },
	"uniform":     func(r *rand.Rand) float64 { return 0.5 + r.Float64() },
}

// coverage is the share of trials in which RatioInterval covers the true
// ratio of medians (4 = 4000/1000) of two samples of token counts of one
// shape, nx and ny episodes a side.
func coverage(nx, ny int, shape func(*rand.Rand) float64, trials int, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 9))
	hit := 0
	for k := range trials {
		xs, ys := make([]float64, nx), make([]float64, ny)
		for i := range xs {
			xs[i] = 4000 * shape(rng)
		}
		for i := range ys {
			ys[i] = 1000 * shape(rng)
		}
		slices.Sort(xs)
		slices.Sort(ys)
		if iv := RatioInterval(xs, ys, uint64(k)+1); iv.Low <= 4 && 4 <= iv.High {
			hit++
		}
	}
	return float64(hit) / float64(trials)
}

// TestBootstrapCoverage measures the real coverage of the 95% bootstrap
// interval of a token ratio, which MinBootstrapN is chosen by: under 90%
// below 4 episodes a side (about 0.68 at 2 and 0.89 at 3), at least 90%
// from 4 on (0.93), unequal sides included, for token counts of every
// shape of tokenShapes. Its figures are in
// MinBootstrapN's doc and docs/RESULTS.md.
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("measures coverage by simulation: 40,000 bootstrap intervals")
	}
	const trials = 4000
	for _, name := range []string{"log-normal", "exponential", "uniform"} {
		shape := tokenShapes[name]
		c2, c3 := coverage(2, 2, shape, trials, 1), coverage(3, 3, shape, trials, 2)
		c4, c410 := coverage(MinBootstrapN, MinBootstrapN, shape, trials, 3), coverage(MinBootstrapN, 10, shape, trials/2, 4)
		t.Logf("%s: coverage %.3f at 2+2, %.3f at 3+3, %.3f at 4+4, %.3f at 4+10", name, c2, c3, c4, c410)
		if c4 < 0.90 || c410 < 0.90 {
			t.Errorf("%s: coverage %.3f at 4+4, %.3f at 4+10: under 90%% at MinBootstrapN", name, c4, c410)
		}
		if c2 >= 0.80 || c3 >= 0.92 {
			t.Errorf("%s: coverage %.3f at 2+2, %.3f at 3+3: MinBootstrapN could be lower", name, c2, c3)
		}
	}
}
