package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"bench/record"
)

func TestFisherExactKnownValues(t *testing.T) {
	for _, c := range []struct {
		a, b, c, d int
		want       float64
	}{
		{3, 1, 1, 3, 0.4857},    // Fisher's lady tasting tea: 34/70
		{1, 9, 11, 3, 0.002759}, // the worked example on Wikipedia
		{0, 5, 0, 5, 1},
		{5, 0, 0, 5, 2.0 / 252},
	} {
		if got := FisherExact(c.a, c.b, c.c, c.d); math.Abs(got-c.want) > 5e-5 {
			t.Errorf("FisherExact(%d, %d, %d, %d) = %.6f, want %.6f", c.a, c.b, c.c, c.d, got, c.want)
		}
	}
}

func TestMannWhitneyExact(t *testing.T) {
	for _, c := range []struct {
		xs, ys []float64
		want   float64
	}{
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 2.0 / 20},
		{[]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 2.0 / 70},
		{[]float64{5, 6, 7, 8}, []float64{1, 2, 3, 4}, 2.0 / 70},
		{[]float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}, 1 - 0}, // U = 6 of 16: near the middle
	} {
		got := MannWhitney(c.xs, c.ys)
		if c.want == 1 {
			if got < 0.5 {
				t.Errorf("MannWhitney(%v, %v) = %v, want a large p", c.xs, c.ys, got)
			}
			continue
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("MannWhitney(%v, %v) = %v, want %v", c.xs, c.ys, got, c.want)
		}
	}
}

// TestMannWhitneyNormalAgreesWithExact: with ties (so the normal
// approximation is used) the p-value stays close to the exact one of nearly
// the same data without ties.
func TestMannWhitneyNormalAgreesWithExact(t *testing.T) {
	var xs, ys []float64
	for i := range 20 {
		xs = append(xs, float64(2*i))
		ys = append(ys, float64(2*i+9))
	}
	exact := MannWhitney(xs, ys)
	tied := append([]float64{}, ys...)
	tied[0] = xs[5] // 9 becomes 10: one tie, U moves by ½
	approx := MannWhitney(xs, tied)
	if math.Abs(exact-approx) > 0.01 {
		t.Errorf("exact p %v and normal approximation %v differ by more than 0.01", exact, approx)
	}
	if p := MannWhitney([]float64{5, 5, 5}, []float64{5, 5}); p != 1 {
		t.Errorf("identical samples: p = %v, want 1", p)
	}
}

func TestCompareShowsTildeForNoise(t *testing.T) {
	mk := func(track string, n, passes, tokens int) []record.Episode {
		var eps []record.Episode
		for i := range n {
			eps = append(eps, episode("t", track, i+1, 0, i < passes, tokens+i))
		}
		return eps
	}
	old := []record.Data{{Episodes: append(mk("workflow", 20, 2, 1000), mk("agent", 4, 3, 5000)...)}}
	new := []record.Data{{Episodes: append(mk("workflow", 20, 18, 2000), mk("agent", 4, 2, 5001)...)}}
	ds := Compare(old, new)
	if len(ds) != 2 {
		t.Fatalf("deltas = %+v, want two", ds)
	}
	if !ds[0].RateSignificant || !ds[0].TokensSignificant || ds[1].RateSignificant || ds[1].TokensSignificant {
		t.Errorf("significance = %+v, want workflow changed in both, agent in neither", ds)
	}
	var buf bytes.Buffer
	if err := WriteCompareText(&buf, ds); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"+80.0pp (p=0.000 n=20+20)", "+99.1% (p=0.000 n=20+20)", "~ (p=1.000 n=4+4)"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
}
