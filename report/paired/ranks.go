package paired

import "bench/internal/radix"

// doubledMidranks returns twice the midrank of every value of xs (whole
// numbers, so that sums compare exactly) and the tie term Σ(t³ − t) over
// its groups of tied values, skipping the group of the value skip when
// skipZero is set (Pratt's zeros are ranked but are in no statistic).
func doubledMidranks(xs []float64, skipZero bool) (ranks []int, ties float64) {
	n := len(xs)
	order := radix.Order(xs) // tied values share a rank: their order is immaterial
	ranks = make([]int, n)
	for i := 0; i < n; {
		j := i
		for j < n && xs[order[j]] == xs[order[i]] {
			j++
		}
		for _, k := range order[i:j] {
			ranks[k] = i + j + 1 // 2 × the mean of ranks i+1 … j
		}
		if t := float64(j - i); t > 1 && !(skipZero && xs[order[i]] == 0) {
			ties += t*t*t - t
		}
		i = j
	}
	return ranks, ties
}
