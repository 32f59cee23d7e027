package paired

// Independent recomputations used as references by the tests: exhaustive
// enumeration with exact rational arithmetic, written without the
// package's helpers (no pmf, no doubledMidranks, no lgamma).

import (
	"math"
	"math/big"
	"testing"
)

// naiveDoubledRank is twice the midrank of xs[i] among xs, counted
// directly: 2·#smaller + #equal + 1.
func naiveDoubledRank(xs []float64, i int) int {
	less, equal := 0, 0
	for _, x := range xs {
		switch {
		case x < xs[i]:
			less++
		case x == xs[i]:
			equal++
		}
	}
	return 2*less + equal + 1
}

// doubledTailRat is 2·min(#le, #ge)/total capped at 1, exactly.
func doubledTailRat(le, ge, total *big.Int) float64 {
	m := le
	if ge.Cmp(le) < 0 {
		m = ge
	}
	r := new(big.Rat).SetFrac(new(big.Int).Mul(m, big.NewInt(2)), total)
	if r.Cmp(big.NewRat(1, 1)) > 0 {
		return 1
	}
	f, _ := r.Float64()
	return f
}

// enumSignedRank is the exact two-sided Wilcoxon signed-rank p-value with
// Pratt's zeros, by listing all 2^k sign assignments of the k non-zero
// differences of new − old, ranked naively among all |differences|.
func enumSignedRank(t *testing.T, before, after []float64) float64 {
	t.Helper()
	abs := make([]float64, len(before))
	for i := range before {
		abs[i] = math.Abs(after[i] - before[i])
	}
	var ranks []int
	observed := 0
	for i := range before {
		if abs[i] == 0 {
			continue
		}
		r := naiveDoubledRank(abs, i)
		ranks = append(ranks, r)
		if after[i] > before[i] {
			observed += r
		}
	}
	if len(ranks) > 22 {
		t.Fatalf("enumSignedRank: %d non-zero differences are too many to list", len(ranks))
	}
	le, ge := new(big.Int), new(big.Int)
	one := big.NewInt(1)
	for mask := 0; mask < 1<<len(ranks); mask++ {
		s := 0
		for j, r := range ranks {
			if mask&(1<<j) != 0 {
				s += r
			}
		}
		if s <= observed {
			le.Add(le, one)
		}
		if s >= observed {
			ge.Add(ge, one)
		}
	}
	return doubledTailRat(le, ge, new(big.Int).Lsh(one, uint(len(ranks))))
}

// enumStratifiedSignedRank is the exact two-sided p-value of the sum over
// strata of each stratum's R+ (ranked within the stratum), by listing
// every sign assignment of every stratum's non-zero differences at once.
func enumStratifiedSignedRank(t *testing.T, strata [][2][]float64) float64 {
	t.Helper()
	var ranks []int
	observed := 0
	for _, st := range strata {
		before, after := st[0], st[1]
		abs := make([]float64, len(before))
		for i := range before {
			abs[i] = math.Abs(after[i] - before[i])
		}
		for i := range before {
			if abs[i] == 0 {
				continue
			}
			r := naiveDoubledRank(abs, i)
			ranks = append(ranks, r)
			if after[i] > before[i] {
				observed += r
			}
		}
	}
	le, ge := new(big.Int), new(big.Int)
	one := big.NewInt(1)
	for mask := 0; mask < 1<<len(ranks); mask++ {
		s := 0
		for j, r := range ranks {
			if mask&(1<<j) != 0 {
				s += r
			}
		}
		if s <= observed {
			le.Add(le, one)
		}
		if s >= observed {
			ge.Add(ge, one)
		}
	}
	return doubledTailRat(le, ge, new(big.Int).Lsh(one, uint(len(ranks))))
}

// enumRankSum is the exact two-sided Mann-Whitney p-value, by listing
// every choice of len(old) positions of the pooled values as the old side.
func enumRankSum(t *testing.T, before, after []float64) float64 {
	t.Helper()
	all := append(append([]float64{}, before...), after...)
	ranks := make([]int, len(all))
	for i := range all {
		ranks[i] = naiveDoubledRank(all, i)
	}
	observed := 0
	for i := range before {
		observed += ranks[i]
	}
	le, ge, total := new(big.Int), new(big.Int), new(big.Int)
	one := big.NewInt(1)
	var choose func(start, left, sum int)
	choose = func(start, left, sum int) {
		if left == 0 {
			total.Add(total, one)
			if sum <= observed {
				le.Add(le, one)
			}
			if sum >= observed {
				ge.Add(ge, one)
			}
			return
		}
		for i := start; i <= len(all)-left; i++ {
			choose(i+1, left-1, sum+ranks[i])
		}
	}
	choose(0, len(before), 0)
	return doubledTailRat(le, ge, total)
}

// ratPMF is an exact distribution: value → probability.
type ratPMF map[int]*big.Rat

// atMostAsLikelyRat is Σ P(v) over the values v with P(v) ≤ P(x), exactly.
func (d ratPMF) atMostAsLikelyRat(x int) float64 {
	px, ok := d[x]
	if !ok {
		return 0
	}
	sum := new(big.Rat)
	for _, p := range d {
		if p.Cmp(px) <= 0 {
			sum.Add(sum, p)
		}
	}
	f, _ := sum.Float64()
	return math.Min(1, f)
}

// convolveRat is the exact distribution of the sum of independent draws.
func convolveRat(a, b ratPMF) ratPMF {
	out := ratPMF{}
	for x, p := range a {
		for y, q := range b {
			if out[x+y] == nil {
				out[x+y] = new(big.Rat)
			}
			out[x+y].Add(out[x+y], new(big.Rat).Mul(p, q))
		}
	}
	return out
}

// enumTable is the exact null distribution of the new side's passes in a
// table of nNew and nOld episodes with passes passes in all, by listing
// every set of passes episodes among the nNew+nOld (the first nNew are the
// new side's).
func enumTable(nNew, nOld, passes int) ratPMF {
	counts := map[int]int64{}
	var total int64
	n := nNew + nOld
	var choose func(start, left, newPasses int)
	choose = func(start, left, newPasses int) {
		if left == 0 {
			counts[newPasses]++
			total++
			return
		}
		for i := start; i <= n-left; i++ {
			add := 0
			if i < nNew {
				add = 1
			}
			choose(i+1, left-1, newPasses+add)
		}
	}
	choose(0, passes, 0)
	d := ratPMF{}
	for x, c := range counts {
		d[x] = big.NewRat(c, total)
	}
	return d
}

// enumCoins is the exact distribution of the number of heads of m fair
// coins, by listing all 2^m outcomes.
func enumCoins(m int) ratPMF {
	counts := map[int]int64{}
	for mask := 0; mask < 1<<m; mask++ {
		h := 0
		for j := 0; j < m; j++ {
			if mask&(1<<j) != 0 {
				h++
			}
		}
		counts[h]++
	}
	d := ratPMF{}
	for x, c := range counts {
		d[x] = big.NewRat(c, 1<<m)
	}
	return d
}

// near reports whether a and b agree to within tol.
func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
