package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"bench/record"
)

// reportvarOutcome scripts one task's episodes over seeds 1..n: on the
// off side passes where off says, on the on side where on says.
type reportvarOutcome struct {
	off, on func(seed int) bool
}

// reportvarRun writes, through record.Create and Append, a run of model m
// with the dimension posture off,on: per task and seed an agent and a
// workflow episode of each variant, the agent's outcomes scripted by
// script (the workflow fails its odd seeds in both variants), the agent
// spending 1000 tokens with posture off and 1200 with posture on.
func reportvarRun(t *testing.T, tasks []string, seeds int, script reportvarOutcome) string {
	t.Helper()
	var eps []record.Episode
	var seedList []int
	for s := 1; s <= seeds; s++ {
		seedList = append(seedList, s)
	}
	for _, variant := range []string{"posture=off", "posture=on"} {
		for _, task := range tasks {
			for s := 1; s <= seeds; s++ {
				pass, tokens := script.off(s), 1000
				if variant == "posture=on" {
					pass, tokens = script.on(s), 1200
				}
				a := countingEp(task, "agent", "m", s, 0, pass, tokens)
				w := countingEp(task, "workflow", "m", s, 0, s%2 == 0, 300)
				a.Variant, w.Variant = variant, variant
				eps = append(eps, a, w)
			}
		}
	}
	run := record.Run{Model: "m", Seeds: seedList, Tracks: []string{"workflow", "agent"},
		Dimensions: []record.Dimension{{Name: "posture", Values: []string{"off", "on"}}}}
	return countingRun(t, filepath.Join(t.TempDir(), "run"), run, eps...)
}

// reportvarDoc is the part of the report's JSON document these tests read.
type reportvarDoc struct {
	Runs []struct {
		Planned, Episodes int
		NotRun            int `json:"not_run"`
	}
	Rows []struct {
		Task, Track, Model, Variant string
		N, Passed                   int
	}
	McNemar []struct {
		Task, Variant string
		Pairs         int
		OnlyA         int `json:"only_a"`
		OnlyB         int `json:"only_b"`
	} `json:"mcnemar"`
	Pooled []struct {
		Dimension, New, Old, Track, Variant string
		Tasks                               int
		Pass                                struct {
			Test struct {
				Name        string
				P           float64
				Significant bool
			}
			Table struct {
				Pairs, Both, Neither int
				OnlyOld              int `json:"only_old"`
				OnlyNew              int `json:"only_new"`
			}
			Difference *struct {
				Estimate float64
				Interval *struct{ Low, High float64 }
			}
			Seeds *struct {
				Seeds    int
				SeedsNow int `json:"seeds_now"`
				Effect   float64
				Stated   bool
			}
		}
		Tokens struct {
			Ratio *struct {
				Estimate float64
				Interval *struct{ Low, High float64 }
			}
		}
		Caveats []struct{ Kind, Text string }
	}
	VariantTasks []struct {
		Dimension, New, Old, Task, Track string
		Paired                           bool
		Pass                             struct {
			Test struct {
				Name string
				P    float64
			}
			Table struct {
				Pairs   int
				OnlyOld int `json:"only_old"`
				OnlyNew int `json:"only_new"`
			}
		}
		Caveats []struct{ Kind string }
	} `json:"variant_tasks"`
}

// reportvarPooled returns the pooled entry of dimension, track and
// variant, failing the test when there is not exactly one.
func reportvarPooled(t *testing.T, doc reportvarDoc, dimension, track, variant string) int {
	t.Helper()
	found := -1
	for i, p := range doc.Pooled {
		if p.Dimension == dimension && p.Track == track && p.Variant == variant {
			if found >= 0 {
				t.Fatalf("two pooled entries of %s %s %q: %+v", dimension, track, variant, doc.Pooled)
			}
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("no pooled entry of %s %s %q: %+v", dimension, track, variant, doc.Pooled)
	}
	return found
}

// reportvarSeedsNeeded recomputes, by exact enumeration, the seeds per
// task with which the exact McNemar test at 0.05 detects a change with
// power 0.8: pairsPerSeed pairs a seed, each discordant with probability
// psi and then favouring the new side with probability pi; the power at n
// pairs sums, over the discordant count m and the new side's share x of
// it, P(m)·P(x | m) over the outcomes the exact test rejects.
func reportvarSeedsNeeded(pairsPerSeed int, psi, pi float64) int {
	binom := func(n, k int, p float64) float64 {
		if p == 0 {
			if k == 0 {
				return 1
			}
			return 0
		}
		if p == 1 {
			if k == n {
				return 1
			}
			return 0
		}
		return math.Exp(lchoose(n, k) + float64(k)*math.Log(p) + float64(n-k)*math.Log(1-p))
	}
	for s := 1; s <= 1000; s++ {
		n := s * pairsPerSeed
		power := 0.0
		for m := 0; m <= n; m++ {
			pm := binom(n, m, psi)
			if pm < 1e-300 {
				continue
			}
			for x := 0; x <= m; x++ {
				if compareBinomialP(m-x, x) < 0.05 {
					power += pm * binom(m, x, pi)
				}
			}
		}
		if power >= 0.8 {
			return s
		}
	}
	return 0
}

// reportvarWilson is the Wilson score interval of k of n at z.
func reportvarWilson(k, n int, z float64) (float64, float64) {
	p, nf := float64(k)/float64(n), float64(n)
	mid := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return mid - half, mid + half
}

// reportvarNewcombe is Newcombe's (1998) method 10 for the difference of
// paired rates, new − old, recomputed here from the paper's formulas:
// both pairs passed a, only the new side b, only the old side c, neither
// d.
func reportvarNewcombe(a, b, c, d int) (float64, float64) {
	n := a + b + c + d
	z := 1.959963984540054
	p1, p2 := float64(a+b)/float64(n), float64(a+c)/float64(n)
	l1, u1 := reportvarWilson(a+b, n, z)
	l2, u2 := reportvarWilson(a+c, n, z)
	phi := 0.0 // Newcombe's φ: AD − BC less N/2 when above it, 0 up to it, as is when below 0
	if den := float64((a + b) * (c + d) * (a + c) * (b + d)); den > 0 {
		switch x := float64(a*d - b*c); {
		case x > float64(n)/2:
			phi = (x - float64(n)/2) / math.Sqrt(den)
		case x < 0:
			phi = x / math.Sqrt(den)
		}
	}
	dl := math.Sqrt(math.Max(0, (p1-l1)*(p1-l1)-2*phi*(p1-l1)*(u2-p2)+(u2-p2)*(u2-p2)))
	du := math.Sqrt(math.Max(0, (u1-p1)*(u1-p1)-2*phi*(u1-p1)*(p2-l2)+(p2-l2)*(p2-l2)))
	return p1 - p2 - dl, p1 - p2 + du
}

// reportvarWithinNoise: per task, seed 1 passes with posture off only and
// seeds 2 and 3 with posture on only (McNemar 1 against 2, p = 1); over 4
// tasks 4 against 8.
var reportvarWithinNoise = reportvarOutcome{
	off: func(s int) bool { return s == 1 || (s >= 4 && s <= 6) },
	on:  func(s int) bool { return s >= 2 && s <= 6 },
}

// TestReportVariantsPooled: a run with the dimension posture off,on is
// compared value against value through bench report: its rows, McNemar
// tests and agent-against-workflow answers stay within a variant, and the
// pooled answer of posture on against off per track is the exact McNemar
// test of the discordant pairs summed over tasks, the difference of the
// pooled rates with Newcombe's interval, the token ratio and the seeds
// per task that would detect the change, each recomputed here.
func TestReportVariantsPooled(t *testing.T) {
	t.Parallel()
	tasks := []string{"a", "b", "c", "d"}
	dir := reportvarRun(t, tasks, 8, reportvarWithinNoise)
	var doc reportvarDoc
	countingJSON(t, &doc, "report", "--format", "json", dir)

	if len(doc.Rows) != 16 {
		t.Fatalf("%d rows, want 4 tasks × 2 tracks × 2 variants: %+v", len(doc.Rows), doc.Rows)
	}
	for _, r := range doc.Rows {
		if r.N != 8 || r.Variant == "" {
			t.Errorf("row %+v: want n = 8 within its variant", r)
		}
	}
	if r := doc.Runs[0]; r.Planned != 128 || r.NotRun != 0 || r.Episodes != 128 {
		t.Errorf("run %+v: want 128 planned (2 variants × 64), all run", r)
	}
	if len(doc.McNemar) != 8 {
		t.Fatalf("%d McNemar tests, want one per task and variant: %+v", len(doc.McNemar), doc.McNemar)
	}
	for _, m := range doc.McNemar {
		if m.Pairs != 8 {
			t.Errorf("McNemar %+v: want 8 pairs, within the variant", m)
		}
	}
	// The agent against the workflow, within each variant: 32 pairs each,
	// no key twice.
	for _, v := range []string{"posture=off", "posture=on"} {
		p := doc.Pooled[reportvarPooled(t, doc, "track", "", v)]
		if p.Pass.Table.Pairs != 32 {
			t.Errorf("agent against workflow, %s: %d pairs, want 32", v, p.Pass.Table.Pairs)
		}
		for _, c := range p.Caveats {
			if c.Kind == "duplicate_keys" {
				t.Errorf("agent against workflow, %s: %s", v, c.Text)
			}
		}
	}

	p := doc.Pooled[reportvarPooled(t, doc, "posture", "agent", "")]
	if p.New != "on" || p.Old != "off" || p.Tasks != 4 || p.Pass.Test.Name != "stratified-exact" {
		t.Fatalf("posture pooled %+v", p)
	}
	tb := p.Pass.Table
	if tb.Pairs != 32 || tb.OnlyOld != 4 || tb.OnlyNew != 8 || tb.Both != 12 || tb.Neither != 8 {
		t.Fatalf("posture table %+v, want 32 pairs: 12 both, 4 off only, 8 on only, 8 neither", tb)
	}
	if want := compareBinomialP(4, 8); math.Abs(p.Pass.Test.P-want) > 1e-9 || p.Pass.Test.Significant {
		t.Errorf("pooled p %v, want %v (McNemar of 4 against 8), within noise", p.Pass.Test.P, want)
	}
	d := p.Pass.Difference
	lo, hi := reportvarNewcombe(12, 8, 4, 8)
	if d == nil || d.Estimate != 0.125 || d.Interval == nil || math.Abs(d.Interval.Low-lo) > 5e-4 || math.Abs(d.Interval.High-hi) > 5e-4 {
		t.Errorf("difference %+v, want 0.125 [%.4f, %.4f] (Newcombe, method 10)", d, lo, hi)
	}
	if r := p.Tokens.Ratio; r == nil || r.Estimate != 1.2 || r.Interval == nil || r.Interval.Low != 1.2 || r.Interval.High != 1.2 {
		t.Errorf("token ratio %+v, want ×1.2 with the interval [1.2, 1.2] (every pair 1000 against 1200)", r)
	}
	// ψ = 12/32 discordant, π = 8/12 of them for posture on.
	seeds := reportvarSeedsNeeded(4, 12.0/32, 8.0/12)
	if s := p.Pass.Seeds; s == nil || s.Seeds != seeds || s.SeedsNow != 8 || s.Stated || math.Abs(s.Effect-0.125) > 1e-12 {
		t.Errorf("seeds %+v, want %d per task (recomputed), now 8, for the observed 0.125", s, seeds)
	}

	// Per task: 1 against 2 on 8 pairs, McNemar p = 1.
	if len(doc.VariantTasks) != 8 {
		t.Fatalf("%d per-task comparisons, want 4 tasks × 2 tracks", len(doc.VariantTasks))
	}
	for _, v := range doc.VariantTasks {
		want := compareBinomialP(1, 2)
		if v.Track == "workflow" {
			want = 1 // the workflow does the same in both variants
		}
		if !v.Paired || v.Pass.Table.Pairs != 8 || v.Pass.Test.Name != "mcnemar-exact" || math.Abs(v.Pass.Test.P-want) > 1e-9 {
			t.Errorf("task %+v: want 8 pairs, McNemar p %v", v, want)
		}
		cannot := false
		for _, c := range v.Caveats {
			cannot = cannot || c.Kind == "cannot_reach_alpha" || c.Kind == "no_difference"
		}
		if !cannot {
			t.Errorf("task %s/%s: 3 discordant pairs or none, and no caveat says no p could be significant: %+v", v.Task, v.Track, v.Caveats)
		}
	}

	text, _, err := runCLI(t, "report", dir)
	if err != nil {
		t.Fatal(err)
	}
	md, _, _ := runCLI(t, "report", "--format", "markdown", dir)
	for _, want := range []string{
		"posture on against off, agent over 4 tasks: pass rate +12.5pp [",
		fmt.Sprintf("within noise (stratified exact p = %.3g); %d seeds per task (now 8) would detect a change of 0.125 with power 0.8; tokens ×1.2 [1.2, 1.2]", compareBinomialP(4, 8), seeds),
		"Settings compared, pooled over tasks", "Settings compared per task", "agent [posture=on]",
	} {
		if !strings.Contains(text, want) || !strings.Contains(md, want) {
			t.Errorf("text or markdown lacks %q:\n%s", want, text)
		}
	}
}

// TestReportVariantsEffect: --effect 0.2 powers the seeds for a change of
// 0.2 at the observed discordance, as recomputed here; a bad value is a
// usage error.
func TestReportVariantsEffect(t *testing.T) {
	t.Parallel()
	dir := reportvarRun(t, []string{"a", "b", "c", "d"}, 8, reportvarWithinNoise)
	var doc reportvarDoc
	countingJSON(t, &doc, "report", "--format", "json", "--effect", "0.2", dir)
	p := doc.Pooled[reportvarPooled(t, doc, "posture", "agent", "")]
	psi := 12.0 / 32
	seeds := reportvarSeedsNeeded(4, psi, (1+0.2/psi)/2)
	if s := p.Pass.Seeds; s == nil || !s.Stated || s.Effect != 0.2 || s.Seeds != seeds {
		t.Errorf("seeds %+v, want %d per task for the stated 0.2", s, seeds)
	}
	for _, bad := range []string{"-0.1", "1.5", "NaN"} {
		_, errOut, err := runCLI(t, "report", "--effect", bad, dir)
		if err == nil || !strings.Contains(err.Error()+errOut, "--effect") {
			t.Errorf("--effect %s: err %v, stderr %q; want a usage error naming --effect", bad, err, errOut)
		}
	}
}

// TestReportVariantsSignificant: posture on passes 2 more seeds of every
// task: per task 2 discordant pairs (p = 0.5, and no p with 2 could be
// significant, which the report says), pooled 8 all one way, p = 2/2⁸:
// changed, and no seeds asked for.
func TestReportVariantsSignificant(t *testing.T) {
	t.Parallel()
	dir := reportvarRun(t, []string{"a", "b", "c", "d"}, 8, reportvarOutcome{
		off: func(s int) bool { return s > 4 },
		on:  func(s int) bool { return s > 2 },
	})
	var doc reportvarDoc
	countingJSON(t, &doc, "report", "--format", "json", dir)
	p := doc.Pooled[reportvarPooled(t, doc, "posture", "agent", "")]
	if want := compareBinomialP(0, 8); math.Abs(p.Pass.Test.P-want) > 1e-9 || !p.Pass.Test.Significant || p.Pass.Difference.Estimate != 0.25 {
		t.Errorf("pooled %+v, want p %v, significant, +0.25", p.Pass, want)
	}
	text, _, _ := runCLI(t, "report", dir)
	answer := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "posture on against off, agent over 4 tasks") {
			answer = l
		}
	}
	if !strings.Contains(answer, "pass rate +25.0pp [") || !strings.Contains(answer, "changed (stratified exact p = 0.00781)") || strings.Contains(answer, "seeds") {
		t.Errorf("text does not give the significant change without seeds:\n%s", text)
	}
	if !strings.Contains(text, "the exact McNemar test needs >= 6 to reach 0.05") {
		t.Errorf("text does not say that no per-task test with 2 discordant pairs could be significant:\n%s", text)
	}
}

// TestReportVariantsTooFew: one task and one seed: no pooled p could be
// significant, and the report says so (and that one task is the whole
// pool) instead of a bare p.
func TestReportVariantsTooFew(t *testing.T) {
	t.Parallel()
	dir := reportvarRun(t, []string{"a"}, 1, reportvarOutcome{off: func(int) bool { return false }, on: func(int) bool { return true }})
	var doc reportvarDoc
	countingJSON(t, &doc, "report", "--format", "json", dir)
	p := doc.Pooled[reportvarPooled(t, doc, "posture", "agent", "")]
	kinds := map[string]bool{}
	for _, c := range p.Caveats {
		kinds[c.Kind] = true
	}
	if p.Pass.Test.P != 1 || p.Pass.Test.Significant || !kinds["cannot_reach_alpha"] || !kinds["few_tasks"] {
		t.Errorf("pooled over 1 pair: p %v, caveats %+v; want p = 1 (McNemar 0 against 1), cannot_reach_alpha and few_tasks", p.Pass.Test.P, p.Caveats)
	}
	text, _, _ := runCLI(t, "report", dir)
	if !strings.Contains(text, "1 discordant pairs: the exact McNemar test needs >= 6") || !strings.Contains(text, "one task: the pooled answer is that task's") ||
		!strings.Contains(text, "posture on against off, agent over 1 task: pass rate +100.0pp [") || !strings.Contains(text, "too few pairs to tell: no outcome could reach p < 0.05 (stratified exact p = 1, smallest possible 1)") {
		t.Errorf("text does not say the pool is too small:\n%s", text)
	}
}

// TestReportVariantsNoDimension: a run without dimensions has no
// comparison of settings and no variant in its rows (the control: the
// same episodes, variants cleared, make 8 rows of 16 episodes).
func TestReportVariantsNoDimension(t *testing.T) {
	t.Parallel()
	var eps []record.Episode
	for s := 1; s <= 4; s++ {
		eps = append(eps, countingEp("a", "agent", "m", s, 0, true, 100))
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}}, eps...)
	var doc reportvarDoc
	countingJSON(t, &doc, "report", "--format", "json", dir)
	for _, p := range doc.Pooled {
		if p.Dimension != "track" {
			t.Errorf("pooled %+v in a run without dimensions", p)
		}
	}
	if len(doc.VariantTasks) != 0 || len(doc.Rows) != 1 || doc.Rows[0].Variant != "" {
		t.Errorf("rows %+v, variant tasks %+v", doc.Rows, doc.VariantTasks)
	}
	out, _, _ := runCLI(t, "report", "--format", "json", dir)
	if strings.Contains(out, "variant") {
		t.Errorf("the JSON of a run without dimensions names variants:\n%s", out)
	}
}

// reportvarCSV reads the report's CSV.
func reportvarCSV(t *testing.T, dir string) [][]string {
	t.Helper()
	out, errOut, err := runCLI(t, "report", "--format", "csv", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, out)
	}
	return recs
}

// reportvarRecords returns the CSV records whose column col holds value,
// each as a map from the header.
func reportvarRecords(recs [][]string, col, value string) []map[string]string {
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		if m[col] == value {
			out = append(out, m)
		}
	}
	return out
}

// TestReportVariantsCSV: the report's CSV holds, in its fixed columns,
// each row's variant, the pooled answer of posture on against off per
// track and the per-task comparisons, with the numbers the JSON gives
// (recomputed here).
func TestReportVariantsCSV(t *testing.T) {
	t.Parallel()
	dir := reportvarRun(t, []string{"a", "b", "c", "d"}, 8, reportvarWithinNoise)
	recs := reportvarCSV(t, dir)
	for _, r := range recs[1:] {
		if len(r) != len(recs[0]) {
			t.Fatalf("a record of %d fields under a header of %d", len(r), len(recs[0]))
		}
	}
	rows := reportvarRecords(recs, "level", "row")
	if len(rows) != 16 || rows[0]["variant"] != "posture=off" {
		t.Fatalf("%d rows (first %v), want 16, posture=off first", len(rows), rows[0])
	}
	var agent map[string]string
	for _, p := range reportvarRecords(recs, "level", "pooled") {
		if p["compared"] == "posture" && p["track"] == "agent" {
			agent = p
		}
	}
	if agent == nil {
		t.Fatalf("no pooled posture row for the agent: %v", reportvarRecords(recs, "level", "pooled"))
	}
	want := map[string]string{"old": "off", "new": "on", "old_passed": "16", "old_n": "32", "new_passed": "20", "new_n": "32",
		"pass_change": "0.125", "pass_test": "stratified-exact", "pass_p": g6csv(compareBinomialP(4, 8)),
		"tokens_ratio": "1.2", "tokens_ratio_low": "1.2", "tokens_ratio_high": "1.2",
		"seeds_per_task": fmt.Sprint(reportvarSeedsNeeded(4, 12.0/32, 8.0/12)), "seeds_now": "8", "seeds_effect": "0.125"}
	for k, v := range want {
		if agent[k] != v {
			t.Errorf("pooled %s = %q, want %q", k, agent[k], v)
		}
	}
	lo, hi := reportvarNewcombe(12, 8, 4, 8)
	for k, v := range map[string]float64{"pass_change_low": lo, "pass_change_high": hi} {
		var got float64
		if _, err := fmt.Sscan(agent[k], &got); err != nil || math.Abs(got-v) > 5e-4 {
			t.Errorf("pooled %s = %q, want %.4f", k, agent[k], v)
		}
	}
	if tasks := reportvarRecords(recs, "level", "task"); len(tasks) != 8 || tasks[0]["pass_test"] != "mcnemar-exact" || tasks[0]["task"] == "" {
		t.Errorf("per-task comparisons %v, want 8 McNemar rows", tasks)
	}
}

// g6csv formats a statistic as the CSV does, six significant digits.
func g6csv(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// TestReportPooledCSV: the pooled answer of the agent against the
// workflow within a run, which the text report gives, is in the CSV too,
// with the same p and difference.
func TestReportPooledCSV(t *testing.T) {
	t.Parallel()
	var eps []record.Episode
	for _, task := range []string{"a", "b", "c", "d"} {
		for s := 1; s <= 4; s++ {
			eps = append(eps, countingEp(task, "workflow", "m", s, 0, s > 2, 1000), countingEp(task, "agent", "m", s, 0, true, 5000))
		}
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}}, eps...)
	pooled := reportvarRecords(reportvarCSV(t, dir), "level", "pooled")
	if len(pooled) != 1 {
		t.Fatalf("pooled records %v, want agent against workflow", pooled)
	}
	p := pooled[0]
	for k, v := range map[string]string{"compared": "track", "old": "workflow", "new": "agent", "model": "m", "pass_change": "0.5",
		"pass_test": "stratified-exact", "pass_p": g6csv(compareBinomialP(0, 8)), "tokens_ratio": "5", "seeds_per_task": ""} {
		if p[k] != v {
			t.Errorf("pooled %s = %q, want %q", k, p[k], v)
		}
	}
}

// TestReportVariantsPage: the HTML page shows the pooled answers, the
// comparisons of settings and a row per variant, each with its own id and
// its own episodes.
func TestReportVariantsPage(t *testing.T) {
	t.Parallel()
	dir := reportvarRun(t, []string{"a", "b"}, 8, reportvarWithinNoise)
	page, errOut, err := runCLI(t, "report", "--format", "html", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{`<section id="compared">`, "Settings compared, pooled over tasks", "Settings compared per task",
		"Agent against workflow, pooled over tasks", "posture on against off, agent over 2 tasks: pass rate &#43;12.5pp [",
		`id="row-a-agent-posture=on"`, `id="row-a-agent-posture=off"`, "agent [posture=on]"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(page, `id="row-a-agent-posture=on"`); n != 1 {
		t.Errorf("the row id of a/agent with posture on appears %d times", n)
	}
}

// TestReportPooledPage: the pooled answer of the agent against the
// workflow within a run is on the page, as in the text report.
func TestReportPooledPage(t *testing.T) {
	t.Parallel()
	var eps []record.Episode
	for _, task := range []string{"a", "b", "c", "d"} {
		for s := 1; s <= 4; s++ {
			eps = append(eps, countingEp(task, "workflow", "m", s, 0, s > 2, 1000), countingEp(task, "agent", "m", s, 0, true, 5000))
		}
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}}, eps...)
	page, errOut, err := runCLI(t, "report", "--format", "html", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{"Agent against workflow, pooled over tasks", fmt.Sprintf("stratified exact p=%.3f changed", compareBinomialP(0, 8)), "&#43;50.0pp ["} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "Settings compared") {
		t.Error("the page of a run without dimensions compares settings")
	}
}

// TestReportVariantsTwoDimensions: with --max-turns 5,25 and --posture
// off,on, each dimension is compared with the other held fixed: posture
// on against off within max-turns=5 and within max-turns=25, and
// max-turns 25 against 5 within each posture; the episodes of the four
// variants never pair across the fixed one.
func TestReportVariantsTwoDimensions(t *testing.T) {
	t.Parallel()
	var eps []record.Episode
	for _, mt := range []string{"5", "25"} {
		for _, po := range []string{"off", "on"} {
			for _, task := range []string{"a", "b"} {
				for s := 1; s <= 6; s++ {
					pass := s <= 2 || (po == "on" && s <= 4) || (mt == "25" && s == 6)
					ep := countingEp(task, "agent", "m", s, 0, pass, 100)
					ep.Variant = "max-turns=" + mt + " posture=" + po
					eps = append(eps, ep)
				}
			}
		}
	}
	run := record.Run{Model: "m", Seeds: []int{1, 2, 3, 4, 5, 6}, Tracks: []string{"agent"},
		Dimensions: []record.Dimension{{Name: "max-turns", Values: []string{"5", "25"}}, {Name: "posture", Values: []string{"off", "on"}}}}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), run, eps...)
	var doc reportvarDoc
	countingJSON(t, &doc, "report", "--format", "json", dir)
	if len(doc.Rows) != 8 {
		t.Fatalf("%d rows, want 2 tasks × 4 variants", len(doc.Rows))
	}
	if doc.Rows[0].Variant != "max-turns=5 posture=off" || doc.Rows[1].Variant != "max-turns=5 posture=on" || doc.Rows[2].Variant != "max-turns=25 posture=off" {
		t.Errorf("rows not in the dimensions' order (5 before 25, off before on): %+v", doc.Rows[:4])
	}
	for _, fixed := range []string{"max-turns=5", "max-turns=25"} {
		p := doc.Pooled[reportvarPooled(t, doc, "posture", "agent", fixed)]
		// posture on passes seeds 3 and 4 more on each task: 4 pairs one way.
		if p.Pass.Table.Pairs != 12 || p.Pass.Table.OnlyNew != 4 || p.Pass.Table.OnlyOld != 0 || math.Abs(p.Pass.Test.P-compareBinomialP(0, 4)) > 1e-9 {
			t.Errorf("posture within %s: %+v, p %v; want 12 pairs, 4 for posture on only, p %v", fixed, p.Pass.Table, p.Pass.Test.P, compareBinomialP(0, 4))
		}
	}
	for _, fixed := range []string{"posture=off", "posture=on"} {
		p := doc.Pooled[reportvarPooled(t, doc, "max-turns", "agent", fixed)]
		if p.New != "25" || p.Old != "5" || p.Pass.Table.Pairs != 12 || p.Pass.Table.OnlyNew != 2 || p.Pass.Table.OnlyOld != 0 {
			t.Errorf("max-turns within %s: %+v %+v; want 25 against 5, 12 pairs, 2 for 25 only", fixed, p, p.Pass.Table)
		}
	}
}

// TestCompareVariantsPairWithin: bench compare of two runs that both have
// the dimension posture off,on compares each variant with the same
// variant of the other run: a row per task, track and variant, each on
// its own pairs.
func TestCompareVariantsPairWithin(t *testing.T) {
	t.Parallel()
	old := reportvarRun(t, []string{"a"}, 8, reportvarOutcome{off: always8, on: always8})
	new := reportvarRun(t, []string{"a"}, 8, reportvarOutcome{off: always8, on: func(s int) bool { return s > 6 }})
	var doc struct {
		Deltas []struct {
			Task, Track, Variant string
			Pairs                int
			RateP                float64 `json:"rate_p"`
		}
	}
	countingJSON(t, &doc, "compare", old, new, "--format", "json")
	got := map[string]float64{}
	for _, d := range doc.Deltas {
		if d.Pairs != 8 {
			t.Errorf("delta %+v: want 8 pairs within its variant", d)
		}
		got[d.Track+" "+d.Variant] = d.RateP
	}
	want := map[string]float64{"agent posture=off": 1, "agent posture=on": compareBinomialP(6, 0), "workflow posture=off": 1, "workflow posture=on": 1}
	if len(got) != len(want) {
		t.Fatalf("deltas %+v, want one per track and variant", doc.Deltas)
	}
	for k, p := range want {
		if math.Abs(got[k]-p) > 1e-6 {
			t.Errorf("%s: p %v, want %v", k, got[k], p)
		}
	}
}

func always8(int) bool { return true }
