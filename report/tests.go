package report

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// FisherExact returns the two-sided p-value of Fisher's exact test on the
// 2×2 table [[a, b], [c, d]]: the probability, with the margins fixed, of a
// table at most as likely as the observed one.
func FisherExact(a, b, c, d int) float64 {
	r1, k, n := a+b, a+c, a+b+c+d
	if n == 0 {
		return 1
	}
	logC := func(n, k int) float64 {
		x, _ := math.Lgamma(float64(n + 1))
		y, _ := math.Lgamma(float64(k + 1))
		z, _ := math.Lgamma(float64(n - k + 1))
		return x - y - z
	}
	logDen := logC(n, r1)
	prob := func(x int) float64 { return math.Exp(logC(k, x) + logC(n-k, r1-x) - logDen) }
	observed := prob(a)
	p := 0.0
	for x := max(0, r1-(n-k)); x <= min(k, r1); x++ {
		if px := prob(x); px <= observed*(1+1e-7) {
			p += px
		}
	}
	return math.Min(1, p)
}

// exactMax is the largest n1+n2 for which MannWhitney computes the exact
// permutation distribution of the rank sum; above it, the normal
// approximation is close.
const exactMax = 60

// MannWhitney returns the two-sided p-value of the Mann-Whitney U (rank-sum)
// test of xs against ys: for n1+n2 ≤ exactMax the exact permutation test of
// the rank sum with midranks for ties (as go-moremath computes it for
// benchstat), else the normal approximation with tie and continuity
// corrections. It returns 1 when either sample is empty.
func MannWhitney(xs, ys []float64) float64 {
	n1, n2 := len(xs), len(ys)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	ranks, ties := midranks(xs, ys)
	if n1+n2 <= exactMax {
		return exactRankSum(ranks, n1)
	}
	rankSum := 0.0
	for _, r := range ranks[:n1] {
		rankSum += float64(r) / 2
	}
	u := rankSum - float64(n1*(n1+1))/2
	n := float64(n1 + n2)
	mean := float64(n1*n2) / 2
	variance := float64(n1*n2) / 12 * ((n + 1) - ties/(n*(n-1)))
	if variance <= 0 {
		return 1 // every value is the same
	}
	z := (math.Abs(u-mean) - 0.5) / math.Sqrt(variance)
	return math.Min(1, 2*distuv.UnitNormal.Survival(math.Max(z, 0)))
}

// midranks returns twice the midrank of every value of xs and then ys, in
// that order (whole numbers, so that sums compare exactly), and the tie
// term Σ(t³ − t) over groups of tied values.
func midranks(xs, ys []float64) (ranks []int, ties float64) {
	n := len(xs) + len(ys)
	all := make([]float64, 0, n)
	all = append(append(all, xs...), ys...)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(all[a], all[b]) })
	ranks = make([]int, n)
	for i := 0; i < n; {
		j := i
		for j < n && all[order[j]] == all[order[i]] {
			j++
		}
		for _, k := range order[i:j] {
			ranks[k] = i + j + 1 // 2 × the mean of ranks i+1 … j
		}
		if t := float64(j - i); t > 1 {
			ties += t*t*t - t
		}
		i = j
	}
	return ranks, ties
}

// exactRankSum returns the two-sided exact p-value of the sum of the first
// n1 of ranks (doubled midranks) against its permutation distribution: the
// sums of all equally likely ways to choose n1 of the ranks, counted by
// dynamic programming (count[j][s]: subsets of size j with sum s).
func exactRankSum(ranks []int, n1 int) float64 {
	total, observed := 0, 0
	for i, r := range ranks {
		total += r
		if i < n1 {
			observed += r
		}
	}
	if n := len(ranks); 2*n1 > n { // choose the smaller side: its sum is total minus the other's
		n1, observed = n-n1, total-observed
	}
	count := make([][]float64, n1+1)
	for j := range count {
		count[j] = make([]float64, total+1)
	}
	count[0][0] = 1
	for _, r := range ranks {
		for j := n1; j >= 1; j-- {
			prev, cur := count[j-1], count[j]
			for s := total; s >= r; s-- {
				cur[s] += prev[s-r]
			}
		}
	}
	var all, le, ge float64
	for s, c := range count[n1] {
		all += c
		if s <= observed {
			le += c
		}
		if s >= observed {
			ge += c
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/all)
}

// minRankSumP is the smallest two-sided p-value the rank-sum test can give
// for samples of sizes n1 and n2 (no ties, complete separation):
// 2/C(n1+n2, n1).
func minRankSumP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	lc, _ := math.Lgamma(float64(n1 + n2 + 1))
	a, _ := math.Lgamma(float64(n1 + 1))
	b, _ := math.Lgamma(float64(n2 + 1))
	return math.Min(1, 2*math.Exp(-(lc-a-b)))
}

// neededPerSide is the smallest m such that m+m episodes can show a
// significant change at alpha (2/C(2m, m) < alpha), as benchstat's "need
// >= 4 samples to detect a difference at alpha level 0.05".
func neededPerSide(alpha float64) int {
	m := 1
	for !below(minRankSumP(m, m), alpha) && m < 1000 {
		m++
	}
	return m
}
