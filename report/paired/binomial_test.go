package paired

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquareP is the p-value of Pearson's chi-square test of the counts
// observed against the probabilities exact (over the same outcomes), the
// outcomes of an expected count below 5 pooled into one class.
func chiSquareP(observed []int, exact []float64, draws int) (p float64, df int) {
	stat, pooledObs, pooledExp := 0.0, 0.0, 0.0
	classes := 0
	for k, pk := range exact {
		e := pk * float64(draws)
		if e < 5 {
			pooledObs, pooledExp = pooledObs+float64(observed[k]), pooledExp+e
			continue
		}
		stat += (float64(observed[k]) - e) * (float64(observed[k]) - e) / e
		classes++
	}
	if pooledExp > 0 {
		stat += (pooledObs - pooledExp) * (pooledObs - pooledExp) / pooledExp
		classes++
	}
	if classes < 2 {
		return 1, 0
	}
	return distuv.ChiSquared{K: float64(classes - 1)}.Survival(stat), classes - 1
}

// binomialPMF is the exact Binomial(n, p) mass function, from log
// factorials.
func binomialPMF(n int, p float64) []float64 {
	pmf := make([]float64, n+1)
	for k := range pmf {
		switch {
		case p == 0:
			pmf[k] = float64(b2i(k == 0))
		case p == 1:
			pmf[k] = float64(b2i(k == n))
		default:
			pmf[k] = math.Exp(logFactorial(float64(n)) - logFactorial(float64(k)) - logFactorial(float64(n-k)) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
		}
	}
	return pmf
}

// TestBinomialAgainstExactPMF draws from binomial at sizes and
// probabilities on both sides of the switch from inversion to BTRS
// (n·p = 10), at the edges (p 0 and 1, n 1) and past ½ (drawn as n minus
// a draw of 1−p), and tests the draws against the exact mass function by
// chi-square: a sampler off by a few per cent anywhere fails at p < 10⁻⁶.
func TestBinomialAgainstExactPMF(t *testing.T) {
	cases := []struct {
		n int
		p float64
	}{
		{1, 0.5}, {1, 0.01}, {1, 0.99}, {7, 0}, {7, 1}, {10, 0.3}, {19, 0.5}, {20, 0.5}, {21, 0.5},
		{100, 0.099}, {100, 0.1}, {100, 0.101}, {100, 0.9}, {1000, 0.02}, {1000, 0.37}, {5000, 0.5},
		{82_000, 0.0003}, {82_000, 0.25}, {1_000_000, 0.6},
	}
	draws := 200_000
	if testing.Short() {
		draws = 40_000
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,p=%v", c.n, c.p), func(t *testing.T) {
			s := newStream(11, "binomial", c.n)
			observed := make([]int, c.n+1)
			sum := 0.0
			for range draws {
				k := s.binomial(c.n, c.p)
				if k < 0 || k > c.n {
					t.Fatalf("drew %d, outside [0, %d]", k, c.n)
				}
				observed[k]++
				sum += float64(k)
			}
			p, df := chiSquareP(observed, binomialPMF(c.n, c.p), draws)
			if p < 1e-6 {
				t.Errorf("chi-square p = %.2g on %d degrees of freedom: the draws are not Binomial(%d, %v)", p, df, c.n, c.p)
			}
			mean, sd := float64(c.n)*c.p, math.Sqrt(float64(c.n)*c.p*(1-c.p)/float64(draws))
			if math.Abs(sum/float64(draws)-mean) > 6*sd+1e-12 {
				t.Errorf("mean %v, want %v ± %v", sum/float64(draws), mean, 6*sd)
			}
		})
	}
}

// TestMultinomialAgainstExactPMF draws 5 draws over items of sizes 1, 0,
// 2 and 3 and tests every outcome's frequency against the multinomial
// mass function; the item of size 0 is never drawn, and a total of zero
// draws gives zeros.
func TestMultinomialAgainstExactPMF(t *testing.T) {
	sizes := []uint32{1, 0, 2, 3}
	const n, total, draws = 5, 6, 100_000
	s := newStream(12, "multinomial", 0)
	index := func(c []uint32) int { return int(c[0])*36 + int(c[2])*6 + int(c[3]) }
	observed := make([]int, 6*36)
	out := make([]uint32, len(sizes))
	for range draws {
		c := s.multinomial(n, sizes, total, out)
		if c[1] != 0 || c[0]+c[2]+c[3] != n {
			t.Fatalf("drew %v: not %d draws over the items of positive size", c, n)
		}
		observed[index(c)]++
	}
	exact := make([]float64, len(observed))
	for a := range n + 1 {
		for b := range n + 1 - a {
			c := n - a - b
			ways := math.Exp(logFactorial(n) - logFactorial(float64(a)) - logFactorial(float64(b)) - logFactorial(float64(c)))
			exact[index([]uint32{uint32(a), 0, uint32(b), uint32(c)})] = ways * math.Pow(1.0/6, float64(a)) * math.Pow(2.0/6, float64(b)) * math.Pow(3.0/6, float64(c))
		}
	}
	if p, df := chiSquareP(observed, exact, draws); p < 1e-6 {
		t.Errorf("chi-square p = %.2g on %d degrees of freedom: the counts are not multinomial", p, df)
	}
	if c := s.multinomial(0, sizes, total, out); c[0]+c[1]+c[2]+c[3] != 0 {
		t.Errorf("no draws gave counts %v", c)
	}
}
