package paired

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MaxSeeds is the most seeds per task SeedsNeeded searches.
const MaxSeeds = 1000

// Seeds answers how many seeds per task would let the exact McNemar test
// detect a change in pass rate with the power asked.
type Seeds struct {
	Effect       float64 `json:"effect"`         // |new rate − old rate| powered for
	Stated       bool    `json:"stated"`         // Effect was stated (Options.Effect), not observed
	Discordance  float64 `json:"discordance"`    // ψ: the share of pairs discordant, observed or assumed
	Alpha        float64 `json:"alpha"`          // the test's level
	Power        float64 `json:"power"`          // the power asked
	PairsPerSeed int     `json:"pairs_per_seed"` // pairs that one more seed per task adds (tasks × repeats)
	SeedsNow     int     `json:"seeds_now"`      // seeds the pairs at hand came from
	PowerNow     float64 `json:"power_now"`      // exact power with the pairs at hand
	Seeds        int     `json:"seeds"`          // seeds per task needed; 0 when more than MaxSeeds
	PowerAt      float64 `json:"power_at_seeds"` // exact power at Seeds
	ConnorPairs  float64 `json:"connor_pairs"`   // Connor's (1987) approximation of the pairs needed
}

// SeedsNeeded is the smallest number of seeds per task s with which the
// exact McNemar test at level alpha detects the effect with at least the
// power asked, where s seeds give s·pairsPerSeed pairs.
//
// The pairs are modelled as independent draws in which a pair is
// discordant with probability ψ and, if so, favours the new side with
// probability π. The observed table gives ψ = (onlyOld+onlyNew)/pairs and
// the effect δ = (onlyNew−onlyOld)/pairs. A stated effect (effect > 0)
// replaces the observed one and keeps the observed ψ, raised to |δ| when
// below it (ψ ≥ |δ| always: then every discordant pair is assumed to
// favour one side, an optimistic bound, and a Caveat says so). The power
// is exact: with m ~ Binomial(n, ψ) discordant pairs and k ~ Binomial(m,
// π) of them favouring the new side, P(reject) = Σₘ P(m)·P(min(k, m−k) ≤
// kₘ), kₘ the largest k whose exact two-sided p-value is below alpha. The
// exact test's power is not monotone in n (it saw-tooths), so the answer is
// the first s that reaches the power, scanning upward. ConnorPairs is
// Connor's closed form n = (z₁₋α/₂·√ψ + z_power·√(ψ−δ²))² / δ², given for
// comparison; it ignores the test's discreteness.
//
// It returns nil, with a Caveat, when nothing can be estimated: no
// pairs, no discordant pair and no stated effect, or an observed effect of
// 0.
func SeedsNeeded(onlyOld, onlyNew, pairs, seedsNow int, effect, alpha, power float64) (*Seeds, []Caveat) {
	if pairs <= 0 {
		return nil, []Caveat{caveat(CaveatSeedsUnknown, "no pairs: the seeds needed are not estimated")}
	}
	psi := float64(onlyOld+onlyNew) / float64(pairs)
	delta := math.Abs(float64(onlyNew-onlyOld)) / float64(pairs)
	var notes []Caveat
	stated := effect > 0
	if stated {
		delta = math.Min(1, effect)
		if psi < delta {
			notes = append(notes, caveat(CaveatAssumed, "observed discordance %.3f is below the stated effect %.3g: every discordant pair assumed to favour one side (discordance %.3g), an optimistic bound", psi, delta, delta))
			psi = delta
		}
	} else if onlyOld+onlyNew == 0 {
		return nil, []Caveat{caveat(CaveatSeedsUnknown, "no discordant pair: the seeds needed for the observed effect cannot be estimated (state an effect)")}
	} else if delta == 0 {
		return nil, []Caveat{caveat(CaveatSeedsUnknown, "the observed effect is 0: no number of seeds detects it (state an effect)")}
	}
	pps := max(1, int(math.Round(float64(pairs)/float64(max(1, seedsNow)))))
	p10, p01 := (psi-delta)/2, (psi+delta)/2
	s := &Seeds{Effect: delta, Stated: stated, Discordance: psi, Alpha: alpha, Power: power, PairsPerSeed: pps, SeedsNow: seedsNow}
	s.ConnorPairs = connorPairs(psi, delta, alpha, power)
	calc := newPowerCalc(p10, p01, alpha)
	s.PowerNow = calc.power(pairs)
	// The scan starts at half of Connor's n, where the normal
	// approximation's power is well below the power asked when that is ½
	// or more (about 0.5 when 0.8 is asked); TestSeedsNeededBySimulation
	// scans its cases from 1 to check that nothing earlier reaches it.
	start := 1
	if half := 0.5 * s.ConnorPairs / float64(pps); power >= 0.5 && half > 1 {
		start = int(math.Min(half, MaxSeeds+1))
	}
	for seeds := start; seeds <= MaxSeeds; seeds++ {
		if pw := calc.power(seeds * pps); pw >= power {
			s.Seeds, s.PowerAt = seeds, pw
			return s, notes
		}
	}
	return s, append(notes, caveat(CaveatSeedsBeyond, "more than %d seeds per task would be needed to detect %.3g with power %.2g", MaxSeeds, delta, power))
}

// connorPairs is Connor's (1987) sample size for McNemar's test.
func connorPairs(psi, delta, alpha, power float64) float64 {
	za := distuv.UnitNormal.Quantile(1 - alpha/2)
	zb := distuv.UnitNormal.Quantile(power)
	return sq(za*math.Sqrt(psi)+zb*math.Sqrt(math.Max(0, psi-delta*delta))) / (delta * delta)
}

// criticalValues memoises kₘ, the largest number of discordant pairs on
// the less frequent side with which the exact McNemar test of m
// discordant pairs rejects at alpha (−1 when none does).
type criticalValues struct {
	alpha float64
	k     map[int]int
}

// of returns kₘ. It searches from kₘ₋₁ when that is known (kₘ never
// decreases with m, and grows by at most one), else from the normal
// approximation m/2 − z·√m/2, and checks the answer with the exact
// binomial CDF on both sides: a power computed at many thousand pairs
// reads the kₘ of a window of m, not of every m below it.
func (c *criticalValues) of(m int) int {
	if k, ok := c.k[m]; ok {
		return k
	}
	if c.k == nil {
		c.k = map[int]int{}
	}
	guess, ok := c.k[m-1]
	if !ok {
		guess = int(float64(m)/2 - distuv.UnitNormal.Quantile(1-c.alpha/2)*math.Sqrt(float64(m))/2)
	}
	k := min(max(guess, -1), m-1)
	for k+1 < m && c.rejects(k+1, m) {
		k++
	}
	for k >= 0 && !c.rejects(k, m) {
		k--
	}
	c.k[m] = k
	return k
}

// rejects reports whether the exact test of m discordant pairs, k of them
// on the less frequent side, rejects at alpha.
func (c *criticalValues) rejects(k, m int) bool { return 2*binomCDF(k, m, 0.5) < c.alpha }

// powerCalc computes the exact power of the exact McNemar test at level
// crit.alpha for pairs each discordant in favour of the old side with
// probability p10 and of the new with p01, at several n, remembering the chance
// of rejecting given m discordant pairs, which does not depend on n.
type powerCalc struct {
	p10, p01 float64
	crit     *criticalValues
	reject   []float64 // by m; NaN until computed
}

func newPowerCalc(p10, p01, alpha float64) *powerCalc {
	return &powerCalc{p10: p10, p01: p01, crit: &criticalValues{alpha: alpha}}
}

// power is the exact power with n pairs: Σₘ P(m discordant) · P(reject | m),
// over the m within 10 standard deviations of the mean (the rest weighs
// less than 1e-20).
func (c *powerCalc) power(n int) float64 {
	psi := c.p10 + c.p01
	if n <= 0 || psi <= 0 {
		return 0
	}
	lo, hi := 0, n
	if psi < 1 {
		mean, sd := float64(n)*psi, math.Sqrt(float64(n)*psi*(1-psi))
		lo, hi = max(0, int(mean-10*sd)-2), min(n, int(mean+10*sd)+2)
	}
	power := 0.0
	for m := lo; m <= hi; m++ {
		if r := c.rejectGiven(m); r > 0 {
			power += binomPMF(m, n, psi) * r
		}
	}
	return math.Min(1, power)
}

// rejectGiven is P(reject | m discordant pairs): with k ~ Binomial(m, π)
// of them favouring the new side, π = p01/ψ, P(min(k, m−k) ≤ kₘ).
func (c *powerCalc) rejectGiven(m int) float64 {
	for len(c.reject) <= m {
		c.reject = append(c.reject, math.NaN())
	}
	if math.IsNaN(c.reject[m]) {
		r := 0.0
		if k := c.crit.of(m); k >= 0 {
			pi := c.p01 / (c.p10 + c.p01)
			r = binomCDF(k, m, pi) + 1 - binomCDF(m-k-1, m, pi)
		}
		c.reject[m] = r
	}
	return c.reject[m]
}

// binomCDF is P(X ≤ k) for X ~ Binomial(n, p).
func binomCDF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	case p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	return distuv.Binomial{N: float64(n), P: p}.CDF(float64(k))
}

// binomPMF is P(X = k) for X ~ Binomial(n, p).
func binomPMF(k, n int, p float64) float64 {
	switch {
	case p <= 0:
		return float64(b2i(k == 0))
	case p >= 1:
		return float64(b2i(k == n))
	}
	return math.Exp(logChoose(n, k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}
