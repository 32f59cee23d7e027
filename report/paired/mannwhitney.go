package paired

import (
	"math"
	"slices"
)

// MannWhitney is the Mann-Whitney U (Wilcoxon rank-sum) test of the old
// values against the new, unpaired, midranks for ties. For n1+n2 ≤
// ExactMax the p-value is exact: the permutation distribution of the rank
// sum over every split of the pooled midranks, two-sided as 2·min(P(≤),
// P(≥)) capped at 1, which is scipy.stats.mannwhitneyu(old, new,
// method=PermutationMethod(n_resamples=np.inf)) and, without ties,
// method="exact". Above ExactMax it is the normal approximation with the
// tie correction and a continuity correction of ½:
// scipy.stats.mannwhitneyu(old, new, use_continuity=True,
// method="asymptotic"). With an empty side, or every value equal, P is 1.
func MannWhitney(old, new []float64) Test {
	if len(old)+len(new) <= ExactMax {
		return mannWhitneyExact(old, new)
	}
	return mannWhitneyNormal(old, new, true)
}

// mannWhitneyExact is MannWhitney's exact p-value.
func mannWhitneyExact(old, new []float64) Test {
	t := Test{Name: TestMannWhitneyExact, P: 1, N: len(old) + len(new), MinP: 1}
	if len(old) == 0 || len(new) == 0 {
		return t
	}
	ranks, _ := doubledMidranks(append(slices.Clone(old), new...), false)
	d := rankSums(ranks, len(old))
	t.P, t.MinP = d.doubledTail(sumInts(ranks[:len(old)])), d.minDoubledTail()
	return t
}

// mannWhitneyNormal is MannWhitney's normal approximation with the tie
// correction, continuity corrected when correct is set (scipy's
// use_continuity=True).
func mannWhitneyNormal(old, new []float64, correct bool) Test {
	n1, n2 := len(old), len(new)
	t := Test{Name: TestMannWhitneyNormal, P: 1, N: n1 + n2, MinP: 1}
	if n1 == 0 || n2 == 0 {
		return t
	}
	ranks, ties := doubledMidranks(append(slices.Clone(old), new...), false)
	n := float64(n1 + n2)
	mean := float64(n1) * (n + 1) // of the doubled rank sum
	variance := 4 * float64(n1) * float64(n2) / 12 * ((n + 1) - ties/(n*(n-1)))
	t.P = normalP(float64(sumInts(ranks[:n1])), mean, variance, correct)
	sorted := slices.Sorted(slices.Values(ranks))
	t.MinP = math.Min( // the old side holding the smallest, or the largest, ranks
		normalP(float64(sumInts(sorted[:n1])), mean, variance, correct),
		normalP(float64(sumInts(sorted[len(sorted)-n1:])), mean, variance, correct))
	return t
}

func sumInts(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// rankSums is the permutation distribution of the sum of k of the doubled
// ranks, every choice of k equally likely: count[j][s] is the number of
// subsets of size j with sum s, built rank by rank.
func rankSums(ranks []int, k int) pmf {
	total := 0
	for _, r := range ranks {
		total += r
	}
	count := make([][]float64, k+1)
	for j := range count {
		count[j] = make([]float64, total+1)
	}
	count[0][0] = 1
	for _, r := range ranks {
		for j := k; j >= 1; j-- {
			prev, cur := count[j-1], count[j]
			for s := total; s >= r; s-- {
				cur[s] += prev[s-r]
			}
		}
	}
	all := 0.0
	for _, c := range count[k] {
		all += c
	}
	p := make([]float64, total+1)
	for s, c := range count[k] {
		p[s] = c / all
	}
	return pmf{0, p}
}
