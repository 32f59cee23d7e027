package paired

import (
	"math/rand/v2"
	"testing"
)

func TestMcNemarAgainstEnumeration(t *testing.T) {
	for d := 0; d <= 16; d++ {
		coins := enumCoins(d)
		for onlyNew := 0; onlyNew <= d; onlyNew++ {
			got := McNemar(d-onlyNew, onlyNew)
			want := coins.atMostAsLikelyRat(onlyNew)
			if !near(got.P, want, 1e-12) {
				t.Errorf("McNemar(%d, %d).P = %.15g, enumeration gives %.15g", d-onlyNew, onlyNew, got.P, want)
			}
			if got.N != d || got.Name != TestMcNemarExact {
				t.Errorf("McNemar(%d, %d) = %+v, want n %d and name %s", d-onlyNew, onlyNew, got, d, TestMcNemarExact)
			}
		}
	}
}

func TestMcNemarKnownValues(t *testing.T) {
	for _, c := range []struct {
		onlyOld, onlyNew int
		p, minP          float64
	}{
		{1, 9, 2 * 11.0 / 1024, 2.0 / 1024}, // 2·P(X ≤ 1), X ~ B(10, ½)
		{9, 1, 2 * 11.0 / 1024, 2.0 / 1024},
		{0, 5, 2.0 / 32, 2.0 / 32}, // five discordant pairs cannot reach 0.05
		{0, 6, 2.0 / 64, 2.0 / 64}, // six can
		{3, 3, 1, 2.0 / 64},
		{0, 0, 1, 1},
		{0, 1, 1, 1},
		{2, 12, 2 * 106.0 / 16384, 2.0 / 16384}, // 1+14+91 = 106 ways of at most 2 of 14
	} {
		got := McNemar(c.onlyOld, c.onlyNew)
		if !near(got.P, c.p, 1e-12) || !near(got.MinP, c.minP, 1e-12) {
			t.Errorf("McNemar(%d, %d) = p %v min %v, want %v and %v", c.onlyOld, c.onlyNew, got.P, got.MinP, c.p, c.minP)
		}
	}
	if got := McNemarNeeds(0.05); got != 6 {
		t.Errorf("McNemarNeeds(0.05) = %d, want 6 (2/2^5 = 0.0625, 2/2^6 = 0.03125)", got)
	}
	if got := McNemarNeeds(0.0625); got != 6 { // p < alpha, strictly
		t.Errorf("McNemarNeeds(0.0625) = %d, want 6", got)
	}
	if got := McNemarNeeds(0.01); got != 8 {
		t.Errorf("McNemarNeeds(0.01) = %d, want 8", got)
	}
}

func TestMcNemarLargeIsStable(t *testing.T) {
	// 5000 discordant pairs split evenly: p = 1; 2400 against 2600: the
	// normal approximation (with continuity correction) is 0.00495 and the
	// exact value is close to it.
	if got := McNemar(2500, 2500).P; got != 1 {
		t.Errorf("McNemar(2500, 2500).P = %v, want 1", got)
	}
	if got := McNemar(2400, 2600).P; !near(got, 0.00495, 0.0003) {
		t.Errorf("McNemar(2400, 2600).P = %v, want about 0.00495", got)
	}
}

func TestFisherAgainstEnumeration(t *testing.T) {
	for _, c := range [][4]int{ // old passed, old n, new passed, new n
		{0, 4, 4, 4}, {1, 4, 3, 4}, {2, 4, 2, 4}, {0, 1, 1, 1}, {3, 5, 0, 2}, {6, 8, 1, 5},
		{0, 0, 2, 3}, {2, 3, 0, 0}, {0, 3, 0, 3}, {3, 3, 3, 3}, {5, 9, 2, 7}, {1, 2, 7, 8},
	} {
		got := Fisher(c[0], c[1], c[2], c[3])
		want := enumTable(c[3], c[1], c[0]+c[2]).atMostAsLikelyRat(c[2])
		if !near(got.P, want, 1e-12) {
			t.Errorf("Fisher(%v).P = %.15g, enumeration gives %.15g", c, got.P, want)
		}
	}
}

func TestFisherPublishedValue(t *testing.T) {
	// Fagerland, Lydersen & Laake, Statistical Analysis of Contingency
	// Tables (2017), ch. 4, as the R package contingencytables tests it:
	// Fisher_exact_test_2x2(rbind(c(0,16), c(15,57))) prints P = 0.06287.
	if got := Fisher(0, 16, 15, 72).P; !near(got, 0.06287, 5e-6) {
		t.Errorf("Fisher(0/16, 15/72).P = %.6f, want 0.06287", got)
	}
}

func TestStratifiedExactAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 60 {
		onlyOld, onlyNew := rng.IntN(4), rng.IntN(4)
		var tables []Table2x2
		want := enumCoins(onlyOld + onlyNew)
		observed := onlyNew
		for range rng.IntN(3) { // unequal strata, some of them empty on a side
			oldN, newN := rng.IntN(5), rng.IntN(5)
			tb := Table2x2{OldPassed: rng.IntN(oldN + 1), OldN: oldN, NewPassed: rng.IntN(newN + 1), NewN: newN}
			tables = append(tables, tb)
			want = convolveRat(want, enumTable(tb.NewN, tb.OldN, tb.OldPassed+tb.NewPassed))
			observed += tb.NewPassed
		}
		got := StratifiedExact(onlyOld, onlyNew, tables)
		if w := want.atMostAsLikelyRat(observed); !near(got.P, w, 1e-12) {
			t.Errorf("trial %d: StratifiedExact(%d, %d, %+v).P = %.15g, enumeration gives %.15g", trial, onlyOld, onlyNew, tables, got.P, w)
		}
	}
}

func TestStratifiedExactReducesToMcNemarAndFisher(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {1, 9}, {4, 4}, {0, 7}, {30, 50}} {
		if a, b := StratifiedExact(c[0], c[1], nil).P, McNemar(c[0], c[1]).P; !near(a, b, 1e-12) {
			t.Errorf("pairs only %v: stratified %v, McNemar %v", c, a, b)
		}
	}
	for _, tb := range []Table2x2{{0, 16, 15, 72}, {3, 8, 7, 8}, {0, 0, 1, 2}} {
		if a, b := StratifiedExact(0, 0, []Table2x2{tb}).P, Fisher(tb.OldPassed, tb.OldN, tb.NewPassed, tb.NewN).P; !near(a, b, 1e-12) {
			t.Errorf("one table %+v: stratified %v, Fisher %v", tb, a, b)
		}
	}
	// Nothing at all: p = 1 and nothing can be significant.
	if got := StratifiedExact(0, 0, nil); got.P != 1 || got.MinP != 1 {
		t.Errorf("StratifiedExact of nothing = %+v, want p 1 and min p 1", got)
	}
}

func TestStratifiedExactPublishedValue(t *testing.T) {
	// R's mantelhaen.test(Rabbits, exact = TRUE) (its help page's
	// penicillin example, Rabbits <- array(c(0, 0, 6, 5, 3, 0, 3, 6, 6, 2,
	// 0, 4, 5, 6, 1, 0, 2, 5, 0, 0), dim = c(2, 2, 5))): p-value = 0.03994.
	// In each 2×2 slice column 1 is "Cured" and row 1 the first delay;
	// here the first row is the "new" side, its cured count the passes.
	slices := [][4]int{{0, 0, 6, 5}, {3, 0, 3, 6}, {6, 2, 0, 4}, {5, 6, 1, 0}, {2, 5, 0, 0}}
	var tables []Table2x2
	for _, s := range slices { // column-major: [1,1], [2,1], [1,2], [2,2]
		tables = append(tables, Table2x2{NewPassed: s[0], NewN: s[0] + s[2], OldPassed: s[1], OldN: s[1] + s[3]})
	}
	if got := StratifiedExact(0, 0, tables).P; !near(got, 0.03994, 5e-6) {
		t.Errorf("Rabbits: StratifiedExact.P = %.6f, want 0.03994", got)
	}
}
