package paired

import "math"

// PassTable counts a cell's or a pool's pass/fail outcomes. For pairs,
// Both, OnlyOld, OnlyNew and Neither are the four kinds of pair (OnlyOld:
// the old episode passed and the new one failed); unpaired episodes are in
// OldN/OldPassed and NewN/NewPassed as well as in Unpaired*.
type PassTable struct {
	Pairs    int `json:"pairs"`
	Both     int `json:"both"`
	OnlyOld  int `json:"only_old"`
	OnlyNew  int `json:"only_new"`
	Neither  int `json:"neither"`
	OldN     int `json:"old_n"` // episodes tested: the pairs' old episodes plus the unpaired old episodes of unpaired strata
	OldPass  int `json:"old_passed"`
	NewN     int `json:"new_n"`
	NewPass  int `json:"new_passed"`
	Unpaired int `json:"unpaired"` // episodes of unpaired strata (both sides) in the test
}

// Discordant is the number of pairs whose two episodes differ.
func (t PassTable) Discordant() int { return t.OnlyOld + t.OnlyNew }

// passTable counts the pairs of paired strata and the episodes of unpaired
// ones.
func passTable(strata []*stratum) PassTable {
	var t PassTable
	for _, s := range strata {
		if !s.paired() {
			for _, o := range s.onlyOld {
				t.OldN++
				t.Unpaired++
				t.OldPass += b2i(o.passed)
			}
			for _, o := range s.onlyNew {
				t.NewN++
				t.Unpaired++
				t.NewPass += b2i(o.passed)
			}
			continue
		}
		for _, p := range s.pairs {
			t.Pairs++
			switch {
			case p.old.passed && p.new.passed:
				t.Both++
			case p.old.passed:
				t.OnlyOld++
			case p.new.passed:
				t.OnlyNew++
			default:
				t.Neither++
			}
			t.OldN++
			t.NewN++
			t.OldPass += b2i(p.old.passed)
			t.NewPass += b2i(p.new.passed)
		}
	}
	return t
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// McNemar is the exact McNemar test of pairs of which onlyOld passed on
// the old side only and onlyNew on the new side only: under no change each
// discordant pair is equally likely either way, so onlyNew is
// Binomial(onlyOld+onlyNew, ½). Two-sided by the "at most as likely" rule,
// which for this symmetric distribution is 2·P(X ≤ min(onlyOld, onlyNew))
// capped at 1: scipy.stats.binomtest(onlyNew, onlyOld+onlyNew, 0.5) and
// statsmodels' mcnemar(exact=True). No mid-p. N is the discordant pairs;
// with none, P is 1.
func McNemar(onlyOld, onlyNew int) Test {
	d := binomialHalf(onlyOld + onlyNew)
	return Test{Name: TestMcNemarExact, P: d.atMostAsLikely(onlyNew), N: onlyOld + onlyNew, MinP: d.minAtMostAsLikely()}
}

// Fisher is Fisher's exact test of oldPassed of oldN against newPassed of
// newN, two-sided by the "at most as likely" rule (R's fisher.test,
// scipy.stats.fisher_exact). With an empty side, P is 1.
func Fisher(oldPassed, oldN, newPassed, newN int) Test {
	d := hypergeometric(newN, oldN, oldPassed+newPassed)
	return Test{Name: TestFisherExact, P: d.atMostAsLikely(newPassed), N: oldN + newN, MinP: d.minAtMostAsLikely()}
}

// Table2x2 is one unpaired stratum of StratifiedExact: passes out of
// episodes on each side.
type Table2x2 struct {
	OldPassed, OldN, NewPassed, NewN int
}

// StratifiedExact is the exact conditional test of no pass-rate change in
// any stratum, pooled: each stratum's margins are fixed, the new side's
// passes in a table are hypergeometric under the null, each discordant
// pair is a table of one episode per side (a fair coin), and the statistic
// is the new side's passes summed over strata, whose null distribution is
// the convolution of the strata's. Two-sided by the "at most as likely"
// rule, as R's mantelhaen.test(exact = TRUE). With only pairs it is the
// exact McNemar test of the pooled discordant counts; with one table,
// Fisher's exact test. Concordant pairs carry no information and drop out.
func StratifiedExact(onlyOld, onlyNew int, tables []Table2x2) Test {
	d := binomialHalf(onlyOld + onlyNew)
	observed := onlyNew
	n := onlyOld + onlyNew
	for _, t := range tables {
		d = d.convolve(hypergeometric(t.NewN, t.OldN, t.OldPassed+t.NewPassed))
		observed += t.NewPassed
		n += t.OldN + t.NewN
	}
	return Test{Name: TestStratifiedExact, P: d.atMostAsLikely(observed), N: n, MinP: d.minAtMostAsLikely()}
}

// McNemarNeeds is the fewest discordant pairs with which the exact McNemar
// test can reach p < alpha: the smallest m with 2·2⁻ᵐ < alpha (6 for
// alpha = 0.05), or 0 when none below 1024 can.
func McNemarNeeds(alpha float64) int {
	for m := 1; m < 1024; m++ {
		if math.Ldexp(1, 1-m) < alpha {
			return m
		}
	}
	return 0
}
