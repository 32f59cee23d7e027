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
	cmp := Compare(FromData(old), FromData(new), Alpha)
	ds := cmp.Deltas
	if len(ds) != 2 {
		t.Fatalf("deltas = %+v, want two", ds)
	}
	if !ds[0].RateSignificant || !ds[0].TokensSignificant || ds[1].RateSignificant || ds[1].TokensSignificant {
		t.Errorf("significance = %+v, want workflow changed in both, agent in neither", ds)
	}
	var buf bytes.Buffer
	if err := WriteCompareText(&buf, cmp); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"+80.0pp (p=0.000 20 pairs)", "+99.1% (p=0.000 20 pairs)", "~ (p=1.000 4 pairs)", "paired: McNemar, Wilcoxon"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
}

// rankSumPBrute is an independent recomputation of the exact two-sided
// p-value of the rank-sum test with ties: it ranks by counting (midranks),
// then enumerates every way of choosing len(xs) of the pooled values.
func rankSumPBrute(xs, ys []float64) float64 {
	all := append(append([]float64{}, xs...), ys...)
	n, n1 := len(all), len(xs)
	rank := make([]float64, n)
	for i, v := range all {
		less, equal := 0, 0
		for _, w := range all {
			if w < v {
				less++
			} else if w == v {
				equal++
			}
		}
		rank[i] = float64(less) + float64(equal+1)/2
	}
	observed := 0.0
	for i := range n1 {
		observed += rank[i]
	}
	var total, le, ge float64
	for mask := 0; mask < 1<<n; mask++ {
		if bits(mask) != n1 {
			continue
		}
		s := 0.0
		for i := range n {
			if mask&(1<<i) != 0 {
				s += rank[i]
			}
		}
		total++
		if s <= observed+1e-9 {
			le++
		}
		if s >= observed-1e-9 {
			ge++
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/total)
}

// bits counts the set bits of x.
func bits(x int) int {
	n := 0
	for ; x > 0; x &= x - 1 {
		n++
	}
	return n
}

// TestMannWhitneyExactWithTies: 1034 → 1035 tokens over 3+3 episodes has
// exact p = 2/20 = 0.100 (the normal approximation said 0.047), and the
// exact test agrees with enumeration on tied samples.
func TestMannWhitneyExactWithTies(t *testing.T) {
	old, new := []float64{1034, 1034, 1034}, []float64{1035, 1035, 1035}
	if p := MannWhitney(old, new); math.Abs(p-0.1) > 1e-12 {
		t.Errorf("MannWhitney(1034×3, 1035×3) = %v, want 0.100", p)
	}
	for _, c := range []struct{ xs, ys []float64 }{
		{[]float64{1, 2, 2, 3}, []float64{2, 3, 3, 4, 5}},
		{[]float64{5, 5, 5, 6}, []float64{5, 6, 6, 6, 7, 7}},
		{[]float64{10, 10}, []float64{10, 10, 10}},
		{[]float64{1, 1, 2, 9, 9, 9, 9}, []float64{2, 3, 3, 9, 9}},
		{[]float64{4, 1, 7}, []float64{2, 8, 5, 6}},
	} {
		if got, want := MannWhitney(c.xs, c.ys), rankSumPBrute(c.xs, c.ys); math.Abs(got-want) > 1e-9 {
			t.Errorf("MannWhitney(%v, %v) = %v, enumeration %v", c.xs, c.ys, got, want)
		}
	}
}

// TestCompareSaysOnceWhenNIsTooSmall: with 3+3 unpaired episodes (the
// sides share no seed) no change can be significant at α = 0.05; compare
// says so once, as benchstat does, and a smaller --alpha raises the need.
func TestCompareSaysOnceWhenNIsTooSmall(t *testing.T) {
	mk := func(task string, tokens, first int) []record.Episode {
		var eps []record.Episode
		for s := first; s < first+3; s++ {
			eps = append(eps, episode(task, "agent", s, 0, false, tokens))
		}
		return eps
	}
	old := []record.Data{{Run: record.Run{ID: "o"}, Episodes: append(mk("a", 1034, 1), mk("b", 1034, 1)...)}}
	new := []record.Data{{Run: record.Run{ID: "n"}, Episodes: append(mk("a", 1035, 4), mk("b", 1035, 4)...)}}
	cmp := Compare(FromData(old), FromData(new), Alpha)
	for _, d := range cmp.Deltas {
		if !d.TooFew || d.TokensSignificant || d.TokensP != 0.1 {
			t.Errorf("delta %+v: want too few, not significant, p = 0.1", d)
		}
	}
	var buf bytes.Buffer
	if err := WriteCompareText(&buf, cmp); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	need := "tokens: with these n the U test cannot reach p < 0.05, so no change could show (need >= 4 episodes on each side when both are equal)"
	if strings.Count(out, need) != 1 {
		t.Errorf("want %q once:\n%s", need, out)
	}
	if strings.Contains(out, "p=0.047") {
		t.Errorf("the normal approximation's p = 0.047 is shown:\n%s", out)
	}
	if c := Compare(FromData(old), FromData(new), 0.2); c.Deltas[0].TooFew || !c.Deltas[0].TokensSignificant {
		t.Errorf("at α = 0.2, 3+3 can show a change (p = 0.1): %+v", c.Deltas[0])
	}
	buf.Reset()
	WriteCompareText(&buf, Compare(FromData(old), FromData(new), 0.01))
	if !strings.Contains(buf.String(), "the U test cannot reach p < 0.01, so no change could show (need >= 5 episodes on each side when both are equal)") {
		t.Errorf("at α = 0.01 the need is 5 (2/C(10,5) = 0.008):\n%s", buf.String())
	}
}

// TestCompareWarnsWhenSettingsDiffer: the settings in which the two sides
// differ are what is compared, said in the header.
func TestCompareWarnsWhenSettingsDiffer(t *testing.T) {
	eps := []record.Episode{episode("t", "agent", 1, 0, true, 10)}
	old := []record.Data{{Run: record.Run{ID: "o", Model: "m", RunSettings: record.RunSettings{Temperature: 0.7, Posture: "coding"}}, Episodes: eps}}
	new := []record.Data{{Run: record.Run{ID: "n", Model: "m", RunSettings: record.RunSettings{Temperature: 0.2, Posture: "coding"}}, Episodes: eps}}
	cmp := Compare(FromData(old), FromData(new), Alpha)
	if !strings.Contains(cmp.Compared, "temperature (old: 0.7, new: 0.2)") || !strings.Contains(cmp.Header[0], "temperature (old: 0.7, new: 0.2)") {
		t.Errorf("compared = %q, header %q: want temperature old 0.7, new 0.2 named", cmp.Compared, cmp.Header)
	}
	if same := Compare(FromData(old), FromData(old), Alpha); len(same.Notes) != 0 || !strings.Contains(same.Compared, "differ in no setting") {
		t.Errorf("same settings: notes = %q, compared %q; want no note, no setting", same.Notes, same.Compared)
	}
}

// TestCompareFormats: text, markdown, csv and json all carry the deltas;
// the CSV has a fixed header.
func TestCompareFormats(t *testing.T) {
	old := []record.Data{readRunForTest(t, "testdata/synthetic-run")}
	new := []record.Data{readRunForTest(t, "testdata/synthetic-new")}
	cmp := Compare(FromData(old), FromData(new), Alpha)
	for name, write := range map[string]func(*bytes.Buffer) error{
		"markdown": func(b *bytes.Buffer) error { return WriteCompareMarkdown(b, cmp) },
		"csv":      func(b *bytes.Buffer) error { return WriteCompareCSV(b, cmp) },
		"json":     func(b *bytes.Buffer) error { return WriteCompareJSON(b, cmp) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(buf.String(), "parse_date") {
			t.Errorf("%s lacks parse_date:\n%s", name, buf.String())
		}
	}
	var buf bytes.Buffer
	WriteCompareCSV(&buf, cmp)
	want := "task,track,model,old_model,old_n,new_n,old_passed,new_passed,rate_change,rate_p,rate_significant,rate_too_few,token_basis,old_median_tokens,new_median_tokens,tokens_p,tokens_significant,tokens_too_few,too_few,alpha,paired,pairs,rate_test,tokens_test\n"
	if !strings.HasPrefix(buf.String(), want) {
		t.Errorf("csv header:\n%s\nwant\n%s", strings.SplitN(buf.String(), "\n", 2)[0], want)
	}
}
