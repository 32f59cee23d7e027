package radix

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFloatsAsSlicesSort sorts random slices of several shapes and sizes
// (whole numbers as counts are, fractions, negatives, infinities, ties,
// NaNs, sorted and reversed runs) and checks each against slices.Sort.
func TestFloatsAsSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(i int) float64{
		"counts":    func(int) float64 { return float64(rng.IntN(200_000)) },
		"few":       func(int) float64 { return float64(rng.IntN(3)) },
		"same":      func(int) float64 { return 7 },
		"fractions": func(int) float64 { return rng.NormFloat64() * 1e3 },
		"wide":      func(int) float64 { return math.Ldexp(rng.Float64()-0.5, rng.IntN(2000)-1000) },
		"special": func(int) float64 {
			return []float64{math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.MaxFloat64, 1}[rng.IntN(7)]
		},
		"nan":      func(i int) float64 { return []float64{math.NaN(), 1, -1}[i%3] },
		"sorted":   func(i int) float64 { return float64(i) },
		"reversed": func(i int) float64 { return float64(-i) },
	}
	for name, draw := range shapes {
		for _, n := range []int{0, 1, 2, small - 1, small, 1000, 50_000} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = draw(i)
			}
			want := slices.Clone(xs)
			slices.Sort(want)
			Floats(xs)
			for i := range xs {
				if xs[i] != want[i] && !(math.IsNaN(xs[i]) && math.IsNaN(want[i])) {
					t.Fatalf("%s, n=%d: at %d %v, slices.Sort has %v", name, n, i, xs[i], want[i])
				}
			}
		}
	}
}

// TestFloatsNegativeZeroFirst checks the one order Floats gives that
// slices.Sort leaves open: −0 before +0.
func TestFloatsNegativeZeroFirst(t *testing.T) {
	xs := make([]float64, 2*small)
	for i := range xs {
		xs[i] = math.Copysign(0, float64(i%2*2-1)) // +0, −0, +0, …
	}
	Floats(xs)
	for i, x := range xs {
		if math.Signbit(x) != (i < small) {
			t.Fatalf("at %d: %v (sign bit %v)", i, x, math.Signbit(x))
		}
	}
}

// BenchmarkFloats sorts 100,000 whole numbers below 200,000, as a cell's
// tokens are, by Floats and by slices.Sort (ns/value).
func BenchmarkFloats(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 100_000)
	for i := range xs {
		xs[i] = float64(rng.IntN(200_000))
	}
	work := make([]float64, len(xs))
	for name, sort := range map[string]func([]float64){"radix": Floats, "slices": slices.Sort[[]float64]} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				copy(work, xs)
				sort(work)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/value")
		})
	}
}

// TestOrderAsStableSort checks Order against slices.SortStableFunc with
// cmp.Compare on the shapes of TestFloatsAsSlicesSort: the same indices,
// ties in index order.
func TestOrderAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, small - 1, small, 5000} {
		for shape, draw := range map[string]func(i int) float64{
			"counts": func(int) float64 { return float64(rng.IntN(50)) },
			"mixed":  func(int) float64 { return rng.NormFloat64() },
			"nan":    func(i int) float64 { return []float64{math.NaN(), 2, -2}[i%3] },
		} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = draw(i)
			}
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
			if got := Order(xs); !slices.Equal(got, want) {
				t.Fatalf("%s, n=%d: Order differs from a stable sort", shape, n)
			}
		}
	}
}
