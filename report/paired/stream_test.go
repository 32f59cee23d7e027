package paired

import (
	"fmt"
	"testing"
)

// TestIntNUniform checks by chi-square that intN draws every index in
// [0, n) equally often, for n small, odd, and near the 32-bit range where
// Lemire's method redraws most often (n = 3·2³⁰: a quarter of the low
// parts redrawn), counting the indices in 64 classes when n is larger.
func TestIntNUniform(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 1000, 3 << 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := newStream(9, "intN", n)
			classes := min(n, 64)
			observed := make([]int, classes)
			const draws = 200_000
			for range draws {
				i := s.intN(n)
				if i < 0 || i >= n {
					t.Fatalf("drew %d, outside [0, %d)", i, n)
				}
				observed[int(uint64(i)*uint64(classes)/uint64(n))]++
			}
			exact := make([]float64, classes)
			ceilDiv := func(a uint64) uint64 { return (a + uint64(classes) - 1) / uint64(classes) }
			for k := range exact { // the indices i with ⌊i·classes/n⌋ = k
				exact[k] = float64(ceilDiv(uint64(k+1)*uint64(n))-ceilDiv(uint64(k)*uint64(n))) / float64(n)
			}
			if p, df := chiSquareP(observed, exact, draws); p < 1e-6 {
				t.Errorf("chi-square p = %.2g on %d degrees of freedom: intN(%d) is not uniform", p, df, n)
			}
		})
	}
}
