package report

import (
	"bytes"
	"strings"
	"testing"

	"bench/record"
)

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
	cmp := compareAt(t, FromData(old), FromData(new), Alpha)
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
	cmp := compareAt(t, FromData(old), FromData(new), Alpha)
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
	if c := compareAt(t, FromData(old), FromData(new), 0.2); c.Deltas[0].TooFew || !c.Deltas[0].TokensSignificant {
		t.Errorf("at α = 0.2, 3+3 can show a change (p = 0.1): %+v", c.Deltas[0])
	}
	buf.Reset()
	WriteCompareText(&buf, compareAt(t, FromData(old), FromData(new), 0.01))
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
	cmp := compareAt(t, FromData(old), FromData(new), Alpha)
	if !strings.Contains(cmp.Compared, "temperature (old: 0.7, new: 0.2)") || !strings.Contains(cmp.Header[0], "temperature (old: 0.7, new: 0.2)") {
		t.Errorf("compared = %q, header %q: want temperature old 0.7, new 0.2 named", cmp.Compared, cmp.Header)
	}
	if same := compareAt(t, FromData(old), FromData(old), Alpha); len(same.Notes) != 0 || !strings.Contains(same.Compared, "differ in no setting") {
		t.Errorf("same settings: notes = %q, compared %q; want no note, no setting", same.Notes, same.Compared)
	}
}

// TestCompareFormats: text, markdown, csv and json all carry the deltas;
// the CSV has a fixed header.
func TestCompareFormats(t *testing.T) {
	old := []record.Data{readRunForTest(t, "testdata/synthetic-run")}
	new := []record.Data{readRunForTest(t, "testdata/synthetic-new")}
	cmp := compareAt(t, FromData(old), FromData(new), Alpha)
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

// compareAt compares old and new at alpha as bench compare does
// (CompareWith), failing the test on an error.
func compareAt(t *testing.T, old, new *Aggregate, alpha float64) Comparison {
	t.Helper()
	c, err := CompareWith(old, new, CompareOptions{Alpha: alpha})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
