package report

import (
	"math"
	"math/rand/v2"
	"slices"

	"bench/report/paired"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the level of every interval in the report: the paired
// comparison's default.
const Confidence = paired.DefaultConfidence

// z95 is the two-sided normal quantile for Confidence.
var z95 = paired.ZFor(Confidence)

// Interval is a closed interval [Low, High].
type Interval = paired.Interval

// Wilson returns the Wilson score interval at the report's Confidence for
// passed successes out of n trials ([0, 1] when n is 0): paired.Wilson's.
func Wilson(passed, n int) Interval { return paired.Wilson(passed, n, z95) }

// PassAtK is the unbiased estimator of the chance that at least one of k
// samples passes, given c passes out of n (Chen et al., 2021):
// 1 − C(n−c, k)/C(n, k), computed as a product so that large n cannot
// overflow. It returns NaN when k > n or k < 1.
func PassAtK(n, c, k int) float64 {
	if k < 1 || k > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	q := 1.0
	for i := n - c + 1; i <= n; i++ {
		q *= 1 - float64(k)/float64(i)
	}
	return 1 - q
}

// median returns the median of sorted: its middle value for odd n, the
// midpoint of its two middle values for even n; NaN when it is empty.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	return (sorted[(n-1)/2] + sorted[n/2]) / 2
}

// bootstrapResamples is the number of resamples behind a bootstrap
// interval: the paired comparison's default.
const bootstrapResamples = paired.DefaultResamples

// RatioInterval returns a percentile-bootstrap interval for
// median(num)/median(den), both sorted ascending, drawing from a PCG
// generator seeded with seed so that the same data always give the same
// interval.
//
// The median of a resample of size n from sorted data is its k-th order
// statistic, k = ⌈n/2⌉, for odd n, and the midpoint of its k-th and
// (k+1)-th for even n. The k-th smallest of n uniform indices is ⌊n·U⌋ with
// U ~ Beta(k, n−k+1), and given U the (k+1)-th is the smallest of the n−k
// uniforms above it, U + (1−U)·Beta(1, n−k). Drawing them directly gives
// exactly the distribution of resampling element by element, in constant
// time per resample.
func RatioInterval(num, den []float64, seed uint64) Interval {
	rng := rand.New(rand.NewPCG(seed, 0x62656e6368)) // "bench"
	ratios := make([]float64, bootstrapResamples)
	for i := range ratios {
		ratios[i] = resampledMedian(num, rng) / resampledMedian(den, rng)
	}
	slices.Sort(ratios)
	alpha := (1 - Confidence) / 2
	return Interval{
		Low:  stat.Quantile(alpha, stat.Empirical, ratios, nil),
		High: stat.Quantile(1-alpha, stat.Empirical, ratios, nil),
	}
}

// resampledMedian draws the median of one bootstrap resample of sorted.
func resampledMedian(sorted []float64, rng *rand.Rand) float64 {
	n := len(sorted)
	k := (n + 1) / 2
	u := distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1), Src: rng}.Rand()
	lo := sorted[min(int(float64(n)*u), n-1)]
	if n%2 == 1 {
		return lo
	}
	v := u + (1-u)*distuv.Beta{Alpha: 1, Beta: float64(n - k), Src: rng}.Rand()
	return (lo + sorted[min(int(float64(n)*v), n-1)]) / 2
}
