package report

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestPassAtK(t *testing.T) {
	for _, c := range []struct {
		n, c, k int
		want    float64
	}{
		{5, 2, 2, 0.7},  // 1 − C(3,2)/C(5,2) = 1 − 3/10
		{4, 1, 1, 0.25}, // pass@1 is the pass rate
		{10, 0, 5, 0},
		{10, 10, 3, 1},
		{10, 8, 3, 1},                  // fewer than k failures: some sample of k always passes
		{20, 5, 10, 1 - 3003.0/184756}, // C(15,10)/C(20,10)
	} {
		if got := PassAtK(c.n, c.c, c.k); !near(got, c.want, 1e-12) {
			t.Errorf("PassAtK(%d, %d, %d) = %v, want %v", c.n, c.c, c.k, got, c.want)
		}
	}
	if got := PassAtK(3, 1, 5); !math.IsNaN(got) {
		t.Errorf("PassAtK with k > n = %v, want NaN", got)
	}
	// Stable for large n, where the binomial coefficients overflow float64.
	if got, want := PassAtK(100000, 50000, 10), 1-math.Pow(0.5, 10); !near(got, want, 1e-4) {
		t.Errorf("PassAtK(100000, 50000, 10) = %v, want about %v", got, want)
	}
}

func TestRatioIntervalDeterministic(t *testing.T) {
	num := []float64{900, 1000, 1100, 1200, 5000}
	den := []float64{200, 210, 250, 300}
	a := RatioInterval(num, den, 42)
	b := RatioInterval(num, den, 42)
	if a != b {
		t.Fatalf("same seed, different intervals: %v and %v", a, b)
	}
	if c := RatioInterval(num, den, 43); c == a {
		t.Logf("another seed gave the same interval %v (possible with few data)", c)
	}
	ratio := median(num) / median(den)
	if a.Low > ratio || a.High < ratio {
		t.Errorf("interval %v does not hold the ratio of medians %v", a, ratio)
	}
}

// TestResampledMedianMatchesNaive checks the order-statistic shortcut against
// resampling element by element: the two distributions of the median of a
// resample must agree.
func TestResampledMedianMatchesNaive(t *testing.T) {
	data := []float64{1, 2, 3, 4, 5, 6, 7}
	const draws = 200000
	fast := map[float64]int{}
	naive := map[float64]int{}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]float64, len(data))
	for range draws {
		fast[resampledMedian(data, rng)]++
		for i := range buf {
			buf[i] = data[rng.IntN(len(data))]
		}
		slices.Sort(buf)
		naive[median(buf)]++
	}
	for _, x := range data {
		f, n := float64(fast[x])/draws, float64(naive[x])/draws
		if !near(f, n, 0.006) {
			t.Errorf("P(median = %v): shortcut %.4f, naive %.4f", x, f, n)
		}
	}
}

// TestFirstInOrder: the k first of a list in order are those a full sort
// puts first, whatever the list, ties included.
func TestFirstInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n, k := 1+rng.IntN(300), 1+rng.IntN(20)
		if k > n {
			k = n
		}
		xs := make([]int, n)
		for i := range xs {
			xs[i] = rng.IntN(10)
		}
		got := firstInOrder(xs, k, cmp.Compare[int])
		first := slices.Clone(got[:k])
		slices.Sort(first)
		want := slices.Sorted(slices.Values(xs))[:k]
		if !slices.Equal(first, want) || len(got) != n {
			t.Fatalf("n %d k %d: first %v, want %v", n, k, first, want)
		}
		all := slices.Sorted(slices.Values(got))
		if !slices.Equal(all, slices.Sorted(slices.Values(xs))) {
			t.Fatalf("n %d k %d: lost an element", n, k)
		}
	}
}
