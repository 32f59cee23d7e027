package paired

import "math"

// float64 returns a uniform float64 in [0, 1), 53 random bits.
func (s *stream) float64() float64 { return float64(s.pcg.Uint64()>>11) / (1 << 53) }

// binomial draws from Binomial(n, p) exactly (up to the rounding of
// float64): by inversion, walking the probability mass function up from 0,
// when n·min(p, 1−p) < 10, else by BTRS, the transformed rejection with
// squeeze of Hörmann (1993, "The generation of binomial random variates"),
// whose acceptance test compares with the exact mass function.
func (s *stream) binomial(n int, p float64) int {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - s.binomial(n, 1-p)
	case float64(n)*p < 10:
		return s.binomialInversion(n, p)
	}
	return s.binomialBTRS(n, p)
}

// binomialInversion draws Binomial(n, p), p ≤ ½ and n·p < 10, by
// inversion: the first k whose cumulative probability passes a uniform.
// A uniform that the rounded probabilities leave beyond k = n is drawn
// again.
func (s *stream) binomialInversion(n int, p float64) int {
	q := 1 - p
	ratio, a := p/q, float64(n+1)*p/q
	start := math.Exp(float64(n) * math.Log1p(-p)) // P(0) = qⁿ: n·p < 10 and p ≤ ½ keep it above e⁻¹⁴
	for {
		u, pk := s.float64(), start
		for k := 0; k <= n; k++ {
			if u < pk {
				return k
			}
			u -= pk
			pk *= a/float64(k+1) - ratio // P(k+1) = P(k)·(n−k)/(k+1)·p/q
		}
	}
}

// binomialBTRS draws Binomial(n, p), p ≤ ½ and n·p ≥ 10, by Hörmann's
// BTRS algorithm (the constants are the paper's).
func (s *stream) binomialBTRS(n int, p float64) int {
	nf, q := float64(n), 1-p
	spq := math.Sqrt(nf * p * q)
	b := 1.15 + 2.53*spq
	a := -0.0873 + 0.0248*b + 0.01*p
	c := nf*p + 0.5
	vr := 0.92 - 4.2/b
	alpha := (2.83 + 5.1/b) * spq
	var lpq, m, h float64 // for the exact test, which most draws never reach (the squeeze takes them): computed on first need
	exact := false
	for {
		u, v := s.float64()-0.5, s.float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + c)
		if k < 0 || k > nf {
			continue
		}
		if us >= 0.07 && v <= vr {
			return int(k)
		}
		if !exact {
			lpq, m = math.Log(p/q), math.Floor((nf+1)*p)
			h, exact = logFactorial(m)+logFactorial(nf-m), true
		}
		v = math.Log(v * alpha / (a/(us*us) + b))
		if v <= h-logFactorial(k)-logFactorial(nf-k)+(k-m)*lpq {
			return int(k)
		}
	}
}

// logFactorial is log k! for a whole number k ≥ 0.
func logFactorial(k float64) float64 {
	v, _ := math.Lgamma(k + 1)
	return v
}

// multinomial draws counts of n draws over items of the given sizes (each
// drawn with probability its size over their total), exactly: item k's
// count is a binomial draw of the draws left, with its size's share of the
// sizes left. It writes the counts into out and returns them.
func (s *stream) multinomial(n int, sizes []uint32, total int, out []uint32) []uint32 {
	out = out[:len(sizes)]
	left, rest := n, total
	for k, size := range sizes {
		c := 0
		switch {
		case left == 0:
		case int(size) >= rest:
			c = left
		default:
			c = s.binomial(left, float64(size)/float64(rest))
		}
		out[k] = uint32(c)
		left, rest = left-c, rest-int(size)
	}
	return out
}
