package report

import (
	"math"
)

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
