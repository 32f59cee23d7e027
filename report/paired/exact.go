package paired

import "math"

// pmf is a probability mass function on the integers lo … lo+len(p)−1.
type pmf struct {
	lo int
	p  []float64
}

// likelihoodTolerance is the relative tolerance under which two outcomes
// count as equally likely in the two-sided "at most as likely" rule: R's
// fisher.test and mantelhaen.test use the same 1 + 1e-7.
const likelihoodTolerance = 1 + 1e-7

// logChoose is ln C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// binomialHalf is the distribution of Binomial(n, ½).
func binomialHalf(n int) pmf {
	p := make([]float64, n+1)
	for k := range p {
		p[k] = math.Exp(logChoose(n, k) - float64(n)*math.Ln2)
	}
	return pmf{0, p}
}

// hypergeometric is the distribution of the number of passes on the new
// side of a 2×2 table with nNew and nOld episodes and passes passes in all,
// the margins fixed: the null distribution of Fisher's exact test.
func hypergeometric(nNew, nOld, passes int) pmf {
	lo, hi := max(0, passes-nOld), min(passes, nNew)
	den := logChoose(nNew+nOld, passes)
	p := make([]float64, hi-lo+1)
	for x := lo; x <= hi; x++ {
		p[x-lo] = math.Exp(logChoose(nNew, x) + logChoose(nOld, passes-x) - den)
	}
	return pmf{lo, p}
}

// convolve is the distribution of the sum of independent draws from a and b.
func (a pmf) convolve(b pmf) pmf {
	out := make([]float64, len(a.p)+len(b.p)-1)
	for i, x := range a.p {
		if x == 0 {
			continue
		}
		for j, y := range b.p {
			out[i+j] += x * y
		}
	}
	return pmf{a.lo + b.lo, out}
}

// atMostAsLikely is the two-sided p-value of outcome x: the probability of
// every outcome at most as likely as x (Fisher's rule, as R's fisher.test,
// mantelhaen.test(exact = TRUE) and scipy.stats.fisher_exact use it).
func (a pmf) atMostAsLikely(x int) float64 {
	if x < a.lo || x >= a.lo+len(a.p) {
		return 0
	}
	limit := a.p[x-a.lo] * likelihoodTolerance
	p := 0.0
	for _, q := range a.p {
		if q <= limit {
			p += q
		}
	}
	return math.Min(1, p)
}

// minAtMostAsLikely is the smallest p-value atMostAsLikely can give: that
// of the least likely outcome.
func (a pmf) minAtMostAsLikely() float64 {
	least := math.Inf(1)
	for _, q := range a.p {
		if q > 0 && q < least {
			least = q
		}
	}
	p := 0.0
	for _, q := range a.p {
		if q <= least*likelihoodTolerance {
			p += q
		}
	}
	return math.Min(1, p)
}

// doubledTail is the two-sided p-value of outcome x by doubling the
// smaller tail, 2·min(P(X ≤ x), P(X ≥ x)) capped at 1: the rule of
// scipy.stats.permutation_test, which the rank tests follow.
func (a pmf) doubledTail(x int) float64 {
	le, ge := 0.0, 0.0
	for i, q := range a.p {
		if v := a.lo + i; v <= x {
			le += q
		}
		if v := a.lo + i; v >= x {
			ge += q
		}
	}
	return math.Min(1, 2*math.Min(le, ge))
}

// minDoubledTail is the smallest p-value doubledTail can give: that of the
// less likely of the two extreme outcomes.
func (a pmf) minDoubledTail() float64 {
	first, last := -1, -1
	for i, q := range a.p {
		if q > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || first == last {
		return 1
	}
	return math.Min(1, 2*math.Min(a.p[first], a.p[last]))
}
