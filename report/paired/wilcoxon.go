package paired

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// signedRanks is one sample of paired differences ranked by Pratt's method:
// the absolute differences, zeros included, get midranks; a zero's rank is
// in neither sum. pos holds the doubled ranks of the positive differences,
// neg those of the negative ones.
type signedRanks struct {
	n        int // pairs, zeros included
	pos, neg []int
}

// rankDifferences ranks the differences new − old of paired values.
func rankDifferences(old, new []float64) signedRanks {
	abs := make([]float64, len(old))
	for i := range old {
		abs[i] = math.Abs(new[i] - old[i])
	}
	ranks, _ := doubledMidranks(abs, true)
	s := signedRanks{n: len(old)}
	for i := range old {
		switch d := new[i] - old[i]; {
		case d > 0:
			s.pos = append(s.pos, ranks[i])
		case d < 0:
			s.neg = append(s.neg, ranks[i])
		}
	}
	return s
}

// nonzero is the doubled ranks of every non-zero difference.
func (s signedRanks) nonzero() []int { return append(append([]int{}, s.pos...), s.neg...) }

// statistic is the doubled sum of the positive differences' ranks, 2·R+.
func (s signedRanks) statistic() int {
	t := 0
	for _, r := range s.pos {
		t += r
	}
	return t
}

// signFlips is the null distribution of 2·R+: each non-zero difference is
// positive or negative with probability ½, independently.
func (s signedRanks) signFlips() pmf {
	total := 0
	for _, r := range s.nonzero() {
		total += r
	}
	p := make([]float64, total+1)
	p[0] = 1
	top := 0
	for _, r := range s.nonzero() {
		for v := top; v >= 0; v-- {
			if p[v] != 0 {
				p[v+r] += p[v] / 2
				p[v] /= 2
			}
		}
		top += r
	}
	return pmf{0, p}
}

// moments are the null mean and variance of 2·R+: Σr/2 and Σr²/4 over the
// non-zero doubled ranks r (Cureton's adjustment for Pratt's zeros and the
// tie correction, written as the sums they simplify to).
func (s signedRanks) moments() (mean, variance float64) {
	for _, r := range s.nonzero() {
		mean += float64(r) / 2
		variance += float64(r) * float64(r) / 4
	}
	return mean, variance
}

// normalP is the two-sided normal-approximation p-value of a doubled rank
// statistic t with the null mean and variance given, continuity-corrected
// by ½ on the undoubled scale when correct is set (1 on the doubled one).
func normalP(t, mean, variance float64, correct bool) float64 {
	if variance <= 0 {
		return 1
	}
	dev := math.Abs(t - mean)
	if correct {
		dev = math.Max(0, dev-1)
	}
	return math.Min(1, 2*distuv.UnitNormal.Survival(dev/math.Sqrt(variance)))
}

// signedRankTest tests the sum of the strata's R+ statistics, each ranked
// within its own stratum: exact (the convolution of the strata's sign-flip
// distributions) when the strata hold ExactMax pairs or fewer, else normal
// with the continuity correction.
//
// One stratum (a cell, rankDifferences of its pairs) is the Wilcoxon
// signed-rank test of paired values, the differences new[i] − old[i],
// with Pratt's treatment of zero differences: zeros are ranked with the others (midranks for ties) and then dropped
// from the statistic R+. For n ≤ ExactMax pairs (zeros included) the
// p-value is exact: the sign-flip distribution of R+ over the non-zero
// differences with their midranks, two-sided as 2·min(P(≤), P(≥))
// capped at 1. This is scipy.stats.wilcoxon(new, old, zero_method="pratt",
// method=PermutationMethod(n_resamples=np.inf)), and what scipy's
// method="auto" gives (SciPy 1.15 and later) when there are neither ties
// nor zeros, or n ≤ 13.
// Above ExactMax it is the normal approximation with Cureton's zero
// adjustment, the tie correction and a continuity correction of ½:
// scipy.stats.wilcoxon(new, old, zero_method="pratt", correction=True,
// method="asymptotic") (SciPy ≥ 1.15; "approx" before). With no non-zero
// difference P is 1 (scipy answers NaN there).
func signedRankTest(strata []signedRanks) Test {
	n := 0
	for _, s := range strata {
		n += s.n
	}
	if n <= ExactMax {
		return signedRankExact(strata)
	}
	return signedRankNormal(strata, true)
}

// signedRankExact is signedRankTest's exact p-value.
func signedRankExact(strata []signedRanks) Test {
	t := Test{Name: TestWilcoxonExact, P: 1, MinP: 1}
	if len(strata) != 1 {
		t.Name = TestStratifiedWilcoxon
	}
	d, obs := pmf{0, []float64{1}}, 0
	for _, s := range strata {
		t.N += s.n
		obs += s.statistic()
		d = d.convolve(s.signFlips())
	}
	if len(d.p) > 1 { // else no non-zero difference
		t.P, t.MinP = d.doubledTail(obs), d.minDoubledTail()
	}
	return t
}

// signedRankNormal is signedRankTest's normal approximation, continuity
// corrected when correct is set (scipy's correction=True).
func signedRankNormal(strata []signedRanks, correct bool) Test {
	t := Test{Name: TestWilcoxonNormal, P: 1, MinP: 1}
	if len(strata) != 1 {
		t.Name = TestStratifiedWilcoxonNrm
	}
	obs, mean, variance := 0, 0.0, 0.0
	for _, s := range strata {
		t.N += s.n
		obs += s.statistic()
		m, v := s.moments()
		mean, variance = mean+m, variance+v
	}
	if variance > 0 {
		t.P = normalP(float64(obs), mean, variance, correct)
		t.MinP = normalP(2*mean, mean, variance, correct) // every difference positive
	}
	return t
}
