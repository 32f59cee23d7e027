package paired

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// enumPower is the exact power of the exact McNemar test by listing every
// (onlyOld, onlyNew) outcome of n pairs with its multinomial probability
// and testing it by coin enumeration.
func enumPower(n int, p10, p01, alpha float64) float64 {
	power := 0.0
	for b := 0; b <= n; b++ {
		for c := 0; b+c <= n; c++ {
			if enumCoins(b+c).atMostAsLikelyRat(c) >= alpha {
				continue
			}
			ways, _ := new(big.Int).Binomial(int64(n), int64(b)).Float64()
			ways2, _ := new(big.Int).Binomial(int64(n-b), int64(c)).Float64()
			power += ways * ways2 * math.Pow(p10, float64(b)) * math.Pow(p01, float64(c)) * math.Pow(1-p10-p01, float64(n-b-c))
		}
	}
	return power
}

// mcnemarPower is the exact power of the exact McNemar test with n pairs.
func mcnemarPower(n int, p10, p01 float64, crit *criticalValues) float64 {
	return (&powerCalc{p10: p10, p01: p01, crit: crit}).power(n)
}

func TestMcNemarPowerAgainstEnumeration(t *testing.T) {
	crit := &criticalValues{alpha: 0.05}
	for _, c := range []struct{ p10, p01 float64 }{{0.05, 0.3}, {0.1, 0.1}, {0, 0.25}, {0.2, 0.5}, {0.5, 0.5}} {
		for n := 1; n <= 14; n++ {
			got, want := mcnemarPower(n, c.p10, c.p01, crit), enumPower(n, c.p10, c.p01, 0.05)
			if !near(got, want, 1e-12) {
				t.Errorf("power(n %d, p10 %v, p01 %v) = %.15g, enumeration gives %.15g", n, c.p10, c.p01, got, want)
			}
		}
	}
}

// simulatePower draws trials experiments of n pairs and counts the exact
// McNemar tests significant at alpha.
func simulatePower(rng *rand.Rand, n int, p10, p01, alpha float64, trials int) float64 {
	hits := 0
	for range trials {
		b, c := 0, 0
		for range n {
			switch u := rng.Float64(); {
			case u < p10:
				b++
			case u < p10+p01:
				c++
			}
		}
		if McNemar(b, c).P < alpha {
			hits++
		}
	}
	return float64(hits) / float64(trials)
}

func TestSeedsNeededBySimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, c := range []struct {
		onlyOld, onlyNew, pairs, seeds int
		effect                         float64
	}{
		{1, 4, 16, 4, 0},   // 4 tasks × 4 seeds, observed +0.19
		{2, 5, 32, 8, 0},   // 4 tasks × 8 seeds, observed +0.09
		{3, 3, 16, 4, 0.2}, // a stated effect of 0.2, ψ = 0.375
		{0, 0, 16, 4, 0.2}, // no discordance seen: ψ assumed = 0.2
		{4, 12, 64, 16, 0}, // 1 task × 16 seeds × 4 repeats
	} {
		s, notes := SeedsNeeded(c.onlyOld, c.onlyNew, c.pairs, c.seeds, c.effect, 0.05, 0.8)
		if s == nil || s.Seeds == 0 {
			t.Fatalf("%+v: no answer (%v)", c, notes)
		}
		p10, p01 := (s.Discordance-s.Effect)/2, (s.Discordance+s.Effect)/2
		n := s.Seeds * s.PairsPerSeed
		const trials = 4000
		sim := simulatePower(rng, n, p10, p01, 0.05, trials)
		se := math.Sqrt(0.8 * 0.2 / trials)
		if math.Abs(sim-s.PowerAt) > 4*se || sim < 0.8-4*se {
			t.Errorf("%+v: %d seeds (%d pairs) have exact power %.3f, simulated %.3f", c, s.Seeds, n, s.PowerAt, sim)
		}
		// The smallest: no fewer seeds reach the power (scanning from 1,
		// not from the half of Connor's n the search starts at).
		crit := &criticalValues{alpha: 0.05}
		for fewer := 1; fewer < s.Seeds; fewer++ {
			if pw := mcnemarPower(fewer*s.PairsPerSeed, p10, p01, crit); pw >= 0.8 {
				t.Errorf("%+v: %d seeds already have power %.3f, but SeedsNeeded says %d", c, fewer, pw, s.Seeds)
				break
			}
		}
		if sim := simulatePower(rng, c.pairs, p10, p01, 0.05, trials); math.Abs(sim-s.PowerNow) > 4*math.Sqrt(0.25/trials) {
			t.Errorf("%+v: power now %.3f, simulated %.3f", c, s.PowerNow, sim)
		}
	}
}

func TestConnorPairs(t *testing.T) {
	// At Connor's n, the normal approximation of McNemar's test,
	// Φ((δ√n − z₁₋α/₂√ψ)/√(ψ − δ²)), has exactly the power asked.
	for _, c := range []struct{ psi, delta float64 }{{0.3, 0.1}, {0.5, 0.2}, {0.2, 0.2}, {0.15, 0.05}} {
		n := connorPairs(c.psi, c.delta, 0.05, 0.8)
		za := distuv.UnitNormal.Quantile(0.975)
		power := distuv.UnitNormal.CDF((c.delta*math.Sqrt(n) - za*math.Sqrt(c.psi)) / math.Sqrt(c.psi-c.delta*c.delta))
		if !near(power, 0.8, 1e-9) {
			t.Errorf("Connor(%+v) = %v pairs, whose approximate power is %v", c, n, power)
		}
	}
	// The exact test needs about as many pairs as Connor's formula once n
	// is large; never many fewer.
	s, _ := SeedsNeeded(20, 40, 200, 200, 0, 0.05, 0.8)
	if s == nil || float64(s.Seeds) < 0.9*s.ConnorPairs || float64(s.Seeds) > 1.2*s.ConnorPairs {
		t.Errorf("large n: %+v, want seeds near Connor's %v pairs", s, s.ConnorPairs)
	}
}

func TestSeedsNeededEdges(t *testing.T) {
	for _, c := range []struct {
		name                           string
		onlyOld, onlyNew, pairs, seeds int
		effect                         float64
		kind                           string
	}{
		{"no pairs", 0, 0, 0, 0, 0, CaveatSeedsUnknown},
		{"no discordance, no stated effect", 0, 0, 16, 4, 0, CaveatSeedsUnknown},
		{"observed effect 0", 3, 3, 16, 4, 0, CaveatSeedsUnknown},
	} {
		s, notes := SeedsNeeded(c.onlyOld, c.onlyNew, c.pairs, c.seeds, c.effect, 0.05, 0.8)
		if s != nil || len(notes) != 1 || notes[0].Kind != c.kind {
			t.Errorf("%s: %+v %v, want nil and a %s caveat", c.name, s, notes, c.kind)
		}
	}
	s, notes := SeedsNeeded(0, 0, 16, 4, 0.2, 0.05, 0.8)
	if s == nil || s.Discordance != 0.2 || len(notes) != 1 || notes[0].Kind != CaveatAssumed {
		t.Errorf("stated effect above the discordance: %+v %v, want ψ = 0.2 and an %s caveat", s, notes, CaveatAssumed)
	}
	s, notes = SeedsNeeded(50, 51, 200, 50, 0, 0.05, 0.8)
	if s == nil || s.Seeds != 0 || len(notes) != 1 || notes[0].Kind != CaveatSeedsBeyond {
		t.Errorf("tiny effect: %+v %v, want no seeds and a %s caveat", s, notes, CaveatSeedsBeyond)
	}
	if s.PairsPerSeed != 4 {
		t.Errorf("200 pairs from 50 seeds: %d pairs per seed, want 4", s.PairsPerSeed)
	}
}

// TestCriticalValuesInAnyOrder asks for kₘ out of order, far beyond any m
// asked before, and checks each against a scan of every k from 0: the
// largest k whose exact two-sided p-value is below alpha.
func TestCriticalValuesInAnyOrder(t *testing.T) {
	scan := func(m int, alpha float64) int {
		k := -1
		for k+1 < m && 2*binomCDF(k+1, m, 0.5) < alpha {
			k++
		}
		return k
	}
	for _, alpha := range []float64{0.05, 0.01, 0.5} {
		crit := &criticalValues{alpha: alpha}
		for _, m := range []int{20000, 5, 19999, 20001, 0, 1, 2, 3, 6, 7, 4000, 3999, 40, 41, 39, 100000, 17} {
			if got, want := crit.of(m), scan(m, alpha); got != want {
				t.Errorf("alpha %v: k(%d) = %d, a scan of every k gives %d", alpha, m, got, want)
			}
		}
	}
}
