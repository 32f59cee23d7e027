package report

import (
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

// exactUMax is the largest n1+n2 for which MannWhitney computes the exact
// distribution of U (when there are no ties).
const exactUMax = 40

// MannWhitney returns the two-sided p-value of the Mann-Whitney U test of xs
// against ys: exact for small samples without ties, else the normal
// approximation with tie and continuity corrections. It returns 1 when
// either sample is empty.
func MannWhitney(xs, ys []float64) float64 {
	n1, n2 := len(xs), len(ys)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	u, ties := uStatistic(xs, ys)
	if ties == 0 && n1+n2 <= exactUMax {
		return exactU(u, n1, n2)
	}
	n := float64(n1 + n2)
	mean := float64(n1*n2) / 2
	variance := float64(n1*n2) / 12 * ((n + 1) - ties/(n*(n-1)))
	if variance <= 0 {
		return 1 // every value is the same
	}
	z := (math.Abs(u-mean) - 0.5) / math.Sqrt(variance)
	return math.Min(1, 2*distuv.UnitNormal.Survival(math.Max(z, 0)))
}

// uStatistic returns U for xs (the number of pairs with x > y, ties counting
// ½) and the tie term Σ(t³ − t) over groups of tied values.
func uStatistic(xs, ys []float64) (u, ties float64) {
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, len(xs)+len(ys))
	for _, x := range xs {
		all = append(all, obs{x, true})
	}
	for _, y := range ys {
		all = append(all, obs{y, false})
	}
	slices.SortFunc(all, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	rankSum := 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // average of ranks i+1 … j
		for _, o := range all[i:j] {
			if o.first {
				rankSum += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties += t*t*t - t
		}
		i = j
	}
	n1 := float64(len(xs))
	return rankSum - n1*(n1+1)/2, ties
}

// exactU returns the two-sided exact p-value of U for samples of sizes n1
// and n2 without ties, from the distribution of U under the null hypothesis
// built by the recurrence P(u; m, n) = m/(m+n)·P(u−n; m−1, n) + n/(m+n)·P(u; m, n−1).
func exactU(u float64, n1, n2 int) float64 {
	// dist[m][n] is the distribution of U for sizes m and n.
	dist := make([][][]float64, n1+1)
	for m := range dist {
		dist[m] = make([][]float64, n2+1)
		for n := range dist[m] {
			d := make([]float64, m*n+1)
			switch {
			case m == 0 || n == 0:
				d[0] = 1
			default:
				pm, pn := float64(m)/float64(m+n), float64(n)/float64(m+n)
				for v := range d {
					if v >= n && v-n < len(dist[m-1][n]) {
						d[v] += pm * dist[m-1][n][v-n]
					}
					if v < len(dist[m][n-1]) {
						d[v] += pn * dist[m][n-1][v]
					}
				}
			}
			dist[m][n] = d
		}
	}
	d := dist[n1][n2]
	k := int(math.Round(u))
	lower, upper := 0.0, 0.0
	for v, p := range d {
		if v <= k {
			lower += p
		}
		if v >= k {
			upper += p
		}
	}
	return math.Min(1, 2*math.Min(lower, upper))
}
