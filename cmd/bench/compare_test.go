package main

import (
	"encoding/json"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
)

// compareOutcome is what one scripted episode did.
type compareOutcome struct {
	passed bool
	tokens int
}

// compareRunDir writes, through record.Create and Append, a run folder of
// model whose episodes of track agent are given per task and seed.
func compareRunDir(t *testing.T, name, model string, eps map[string]map[int]compareOutcome) string {
	t.Helper()
	var list []record.Episode
	seen := map[int]bool{}
	var seeds []int
	for _, task := range []string{"a", "b", "c", "d", "e", "f"} {
		for s := 1; s <= 200; s++ {
			o, ok := eps[task][s]
			if !ok {
				continue
			}
			list = append(list, countingEp(task, "agent", model, s, 0, o.passed, o.tokens))
			if !seen[s] {
				seen[s] = true
				seeds = append(seeds, s)
			}
		}
	}
	return countingRun(t, filepath.Join(t.TempDir(), name, "run"), record.Run{Model: model, Seeds: seeds}, list...)
}

// compareScript makes the outcomes of tasks over seeds from..to, passing
// where pass says so, with tokens tokens(task, seed).
func compareScript(tasks []string, from, to int, pass func(task string, seed int) bool, tokens func(task string, seed int) int) map[string]map[int]compareOutcome {
	m := map[string]map[int]compareOutcome{}
	for _, task := range tasks {
		m[task] = map[int]compareOutcome{}
		for s := from; s <= to; s++ {
			m[task][s] = compareOutcome{pass(task, s), tokens(task, s)}
		}
	}
	return m
}

// compareDoc is the part of compare's JSON document the tests read.
type compareDoc struct {
	Compared   string   `json:"compared"`
	PairedBy   string   `json:"paired_by"`
	TokenBasis string   `json:"token_basis"`
	Header     []string `json:"header"`
	Deltas     []struct {
		Task, Track    string
		Paired         bool
		Pairs          int
		RateTest       string  `json:"rate_test"`
		RateP          float64 `json:"rate_p"`
		RateChange     float64 `json:"rate_change"`
		TokensTest     string  `json:"tokens_test"`
		TokensP        float64 `json:"tokens_p"`
		RateSignficant bool    `json:"rate_significant"`
		Seeds          *struct {
			Seeds    int
			SeedsNow int `json:"seeds_now"`
			Effect   float64
			Stated   bool
		}
	}
	Pooled []struct {
		Track, Model string
		Tasks        int
		Pass         struct {
			Test struct {
				Name        string
				P           float64
				Significant bool
			}
			Difference *struct {
				Estimate float64
				Interval *struct{ Low, High float64 }
				Method   string
			}
			Table struct {
				OnlyOld int `json:"only_old"`
				OnlyNew int `json:"only_new"`
				Pairs   int
			}
		}
		Tokens struct {
			Test  struct{ Name string }
			Ratio *struct {
				Estimate float64
				Interval *struct{ Low, High float64 }
			}
		}
	}
	Gate *struct {
		Regression bool
		Reasons    []struct{ Rule, Level, Task, Text string }
	}
}

// compareBinomialP is the exact two-sided McNemar p-value recomputed here
// by summing binomial probabilities: 2·P(X ≤ min(b, c)) for X ~ Bin(b+c, ½),
// capped at 1.
func compareBinomialP(b, c int) float64 {
	n, k := b+c, min(b, c)
	sum := 0.0
	for i := 0; i <= k; i++ {
		sum += math.Exp(lchoose(n, i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*sum)
}

// compareFisherP is Fisher's exact two-sided p-value recomputed here by
// enumerating the hypergeometric tables with the margins seen.
func compareFisherP(oldPassed, oldN, newPassed, newN int) float64 {
	passes := oldPassed + newPassed
	prob := func(x int) float64 { // x passes on the new side
		return math.Exp(lchoose(newN, x) + lchoose(oldN, passes-x) - lchoose(oldN+newN, passes))
	}
	seen := prob(newPassed)
	p := 0.0
	for x := max(0, passes-oldN); x <= min(passes, newN); x++ {
		if q := prob(x); q <= seen*(1+1e-7) {
			p += q
		}
	}
	return math.Min(1, p)
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// compareExit runs bench compare and returns its output, stderr and exit
// code as main would give it.
func compareExit(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, err := runCLI(t, append([]string{"compare"}, args...)...)
	return out, errOut, exitCode(err, io.Discard)
}

func always(string, int) bool    { return true }
func tokens1000(string, int) int { return 1000 }

// TestComparePairsAcrossRuns: a task whose episodes share seeds across the
// runs is tested paired (exact McNemar, Wilcoxon), a task whose seeds the
// runs do not share unpaired (Fisher, Mann-Whitney); each row names its
// tests and the p-values agree with a recomputation here.
func TestComparePairsAcrossRuns(t *testing.T) {
	t.Parallel()
	oldEps := compareScript([]string{"a"}, 1, 8, always, tokens1000)
	newEps := compareScript([]string{"a"}, 1, 8, func(_ string, s int) bool { return s == 8 }, func(_ string, s int) int { return 1000 + s })
	for task, seeds := range compareScript([]string{"b"}, 1, 6, func(_ string, s int) bool { return s <= 5 }, tokens1000) {
		oldEps[task] = seeds
	}
	for task, seeds := range compareScript([]string{"b"}, 101, 106, func(_ string, s int) bool { return s == 101 }, tokens1000) {
		newEps[task] = seeds
	}
	old, new := compareRunDir(t, "old", "m", oldEps), compareRunDir(t, "new", "m", newEps)
	var doc compareDoc
	countingJSON(t, &doc, "compare", old, new, "--format", "json")
	if len(doc.Deltas) != 2 {
		t.Fatalf("deltas = %+v, want a and b", doc.Deltas)
	}
	a, b := doc.Deltas[0], doc.Deltas[1]
	if !a.Paired || a.Pairs != 8 || a.RateTest != "mcnemar-exact" || a.TokensTest != "wilcoxon-signed-rank-exact" {
		t.Errorf("task a: %+v, want 8 pairs, McNemar and Wilcoxon", a)
	}
	if want := compareBinomialP(7, 0); math.Abs(a.RateP-want) > 1e-6 || a.RateChange != -0.875 {
		t.Errorf("task a: p %v, change %v; want %v (7 pairs passed on the old side only) and -0.875", a.RateP, a.RateChange, want)
	}
	// Every token difference is positive (1..8 tokens more): the exact
	// signed-rank p is 2/2⁸.
	if math.Abs(a.TokensP-2.0/256) > 1e-6 {
		t.Errorf("task a: tokens p %v, want 2/256", a.TokensP)
	}
	if b.Paired || b.RateTest != "fisher-exact" || b.TokensTest != "mann-whitney-exact" {
		t.Errorf("task b: %+v, want unpaired Fisher and Mann-Whitney", b)
	}
	if want := compareFisherP(5, 6, 1, 6); math.Abs(b.RateP-want) > 1e-6 {
		t.Errorf("task b: p %v, want Fisher's %v", b.RateP, want)
	}
	if !strings.Contains(doc.PairedBy, "task, track, model, seed and repeat") || len(doc.Header) < 3 {
		t.Errorf("paired by %q, header %q", doc.PairedBy, doc.Header)
	}
	text, _, _ := compareExit(t, old, new)
	for _, want := range []string{"paired: McNemar, Wilcoxon", "unpaired: Fisher, Mann-Whitney", "-87.5pp (p=0.016 8 pairs)", "1 of 2 rows tested on their pairs", "1 without a pair tested unpaired"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// compareDropRuns are 4 tasks × 4 seeds whose new side fails 2 seeds of
// each task that the old side passed: per task 2 discordant pairs (p =
// 0.5, within noise), pooled 8 all one way (p = 2/2⁸).
func compareDropRuns(t *testing.T) (old, new string) {
	tasks := []string{"a", "b", "c", "d"}
	old = compareRunDir(t, "old", "m", compareScript(tasks, 1, 4, always, tokens1000))
	new = compareRunDir(t, "new", "m", compareScript(tasks, 1, 4, func(_ string, s int) bool { return s > 2 }, tokens1000))
	return old, new
}

// TestComparePoolsOverTasks: the per-task tests cannot see a fall the
// pooled test over the track's tasks shows; the pooled entry of the JSON
// holds the test's name, p, the effect and its interval, and a row within
// noise says how many seeds per task would detect its change.
func TestComparePoolsOverTasks(t *testing.T) {
	t.Parallel()
	old, new := compareDropRuns(t)
	var doc compareDoc
	countingJSON(t, &doc, "compare", old, new, "--format", "json")
	if len(doc.Pooled) != 1 {
		t.Fatalf("pooled = %+v, want one entry (track agent)", doc.Pooled)
	}
	p := doc.Pooled[0]
	if p.Track != "agent" || p.Tasks != 4 || p.Pass.Test.Name != "stratified-exact" || !p.Pass.Test.Significant {
		t.Errorf("pooled: %+v, want agent over 4 tasks, stratified exact, significant", p)
	}
	if want := compareBinomialP(8, 0); math.Abs(p.Pass.Test.P-want) > 1e-9 {
		t.Errorf("pooled p = %v, want %v: McNemar over the 8 discordant pairs summed over tasks", p.Pass.Test.P, want)
	}
	if d := p.Pass.Difference; d == nil || d.Estimate != -0.5 || d.Interval == nil || !(d.Interval.Low < -0.5 && d.Interval.High > -0.5 && d.Interval.High < 0) {
		t.Errorf("pooled difference %+v, want -0.5 (8 of 16 pairs lost) with an interval around it below 0", d)
	}
	if r := p.Tokens.Ratio; r == nil || r.Estimate != 1 || p.Tokens.Test.Name != "stratified-wilcoxon-exact" {
		t.Errorf("pooled tokens %+v, want a ratio of 1 by the stratified Wilcoxon test", p.Tokens)
	}
	for _, d := range doc.Deltas {
		if want := compareBinomialP(2, 0); d.RateSignficant || math.Abs(d.RateP-want) > 1e-9 || d.Seeds == nil || d.Seeds.Seeds <= d.Seeds.SeedsNow || d.Seeds.SeedsNow != 4 {
			t.Errorf("task %s: %+v (seeds %+v), want p = %v within noise, with more than the 4 seeds it has to detect it", d.Task, d, d.Seeds, want)
		}
	}
	var stated compareDoc
	countingJSON(t, &stated, "compare", old, new, "--format", "json", "--effect", "0.2")
	if s := stated.Deltas[0].Seeds; s == nil || s.Effect != 0.2 || !s.Stated || s.Seeds <= doc.Deltas[0].Seeds.Seeds {
		t.Errorf("--effect 0.2: seeds %+v, want powered for 0.2, more than for the observed 0.5 (%d)", s, doc.Deltas[0].Seeds.Seeds)
	}
	text, _, _ := compareExit(t, old, new)
	for _, want := range []string{"Pooled over tasks, per track", "stratified exact p=0.008 changed", "-50.0pp [", "(now 4) for Δ 0.5"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	md, _, _ := compareExit(t, old, new, "--format", "markdown")
	if !strings.Contains(md, "## Pooled over tasks, per track") || !strings.Contains(md, "| agent") {
		t.Errorf("markdown lacks the pooled table:\n%s", md)
	}
}

// TestCompareAcrossModels: two runs of different models pair without the
// model, and the header says the model is what is compared.
func TestCompareAcrossModels(t *testing.T) {
	t.Parallel()
	eps := compareScript([]string{"a"}, 1, 6, always, tokens1000)
	old, new := compareRunDir(t, "old", "m1", eps), compareRunDir(t, "new", "m2", eps)
	var doc compareDoc
	countingJSON(t, &doc, "compare", old, new, "--format", "json")
	if !strings.Contains(doc.Compared, "model (old: m1, new: m2)") || !strings.Contains(doc.PairedBy, "the model is what is compared") {
		t.Errorf("compared %q, paired by %q: want the model named as what is compared", doc.Compared, doc.PairedBy)
	}
	if len(doc.Deltas) != 1 || !doc.Deltas[0].Paired || doc.Deltas[0].Pairs != 6 {
		t.Errorf("deltas %+v, want one row of 6 pairs", doc.Deltas)
	}
	text, _, _ := compareExit(t, old, new)
	if first := strings.SplitN(text, "\n", 2)[0]; !strings.Contains(first, "compared: the runs differ in model (old: m1, new: m2)") {
		t.Errorf("the header's first line is %q", first)
	}
}

// TestCompareTokenBasis: when one episode lacks the server's count, both
// sides are compared in bench's estimate, and the header says so.
func TestCompareTokenBasis(t *testing.T) {
	t.Parallel()
	eps := compareScript([]string{"a"}, 1, 4, always, tokens1000)
	old := compareRunDir(t, "old", "m", eps)
	list := []record.Episode{}
	for s := 1; s <= 4; s++ {
		ep := countingEp("a", "agent", "m", s, 0, true, 1000)
		if s == 3 {
			ep.PromptTokens = 0
		}
		list = append(list, ep)
	}
	new := countingRun(t, filepath.Join(t.TempDir(), "new", "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}}, list...)
	var doc compareDoc
	countingJSON(t, &doc, "compare", old, new, "--format", "json")
	if doc.TokenBasis != "estimated" || !strings.Contains(strings.Join(doc.Header, "\n"), "bench's offline estimate") {
		t.Errorf("token basis %q, header %q: want the estimate, said", doc.TokenBasis, doc.Header)
	}
	countingJSON(t, &doc, "compare", old, old, "--format", "json")
	if doc.TokenBasis != "reported" {
		t.Errorf("every episode counted by the server: basis %q", doc.TokenBasis)
	}
}

// TestCompareGateExitCodes: --fail-on regression exits 1 on a regression
// (reasons printed), 0 otherwise; --max-drop and --max-token-rise add their
// rules; nothing in common and a bad gate flag exit 2.
func TestCompareGateExitCodes(t *testing.T) {
	t.Parallel()
	old, drop := compareDropRuns(t)
	// One task falls by 1 of 4 seeds: within noise, 0.25 in pass rate.
	tasks := []string{"a", "b", "c", "d"}
	small := compareRunDir(t, "small", "m", compareScript(tasks, 1, 4, func(task string, s int) bool { return task != "a" || s != 1 }, tokens1000))
	// Every episode takes twice the tokens: a significant pooled rise ×2.
	costly := compareRunDir(t, "costly", "m", compareScript(tasks, 1, 4, always, func(_ string, s int) int { return 2000 + s })) // 16 pairs, all rising
	elsewhere := compareRunDir(t, "elsewhere", "m", compareScript([]string{"e"}, 1, 4, always, tokens1000))
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // in stdout, or stderr for a usage error
	}{
		{"pooled significant drop", []string{old, drop, "--fail-on", "regression"}, 1, "gate: REGRESSION"},
		{"no change", []string{old, old, "--fail-on", "regression"}, 0, "gate: no regression"},
		{"without --fail-on a drop exits 0", []string{old, drop}, 0, "Pooled over tasks"},
		{"small drop within noise", []string{old, small, "--fail-on", "regression"}, 0, "gate: no regression"},
		{"small drop over --max-drop", []string{old, small, "--fail-on", "regression", "--max-drop", "0.1"}, 1, "more than --max-drop 0.1"},
		{"small drop under --max-drop", []string{old, small, "--fail-on", "regression", "--max-drop", "0.3"}, 0, "gate: no regression"},
		{"tokens unchecked without --max-token-rise", []string{old, costly, "--fail-on", "regression"}, 0, "gate: no regression"},
		{"token rise over --max-token-rise", []string{old, costly, "--fail-on", "regression", "--max-token-rise", "0.2"}, 1, "more than --max-token-rise 0.2"},
		{"token rise under --max-token-rise", []string{old, costly, "--fail-on", "regression", "--max-token-rise", "1.5"}, 0, "gate: no regression"},
		{"nothing compared", []string{old, elsewhere, "--fail-on", "regression"}, 2, "nothing to compare"},
		{"bad --fail-on", []string{old, drop, "--fail-on", "anything"}, 2, `--fail-on "anything"`},
		{"--max-drop without --fail-on", []string{old, drop, "--max-drop", "0.1"}, 2, "give it with --fail-on regression"},
		{"--max-drop out of range", []string{old, drop, "--fail-on", "regression", "--max-drop", "2"}, 2, "--max-drop 2"},
		{"--effect out of range", []string{old, drop, "--effect", "1.5"}, 2, "--effect 1.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, err := runCLI(t, append([]string{"compare"}, c.args...)...)
			var msg strings.Builder
			code := exitCode(err, &msg)
			if code != c.code || !strings.Contains(out+msg.String(), c.want) {
				t.Errorf("exit %d, want %d; want %q in\n%s\n%s%s", code, c.code, c.want, out, errOut, msg.String())
			}
			if code == 1 && !strings.Contains(errOut, "regression: ") {
				t.Errorf("a regression's reasons are not on stderr:\n%s", errOut)
			}
		})
	}
}

// TestCompareGateJSONAndMarkdown: with --fail-on the JSON holds the
// decision and its reasons, and --format markdown leads with the verdict,
// fit for a pull-request comment.
func TestCompareGateJSONAndMarkdown(t *testing.T) {
	t.Parallel()
	old, drop := compareDropRuns(t)
	out, _, code := compareExit(t, old, drop, "--fail-on", "regression", "--format", "json")
	var doc compareDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 {
		t.Fatalf("exit %d, JSON %v:\n%s", code, err, out)
	}
	if g := doc.Gate; g == nil || !g.Regression || len(g.Reasons) != 1 || g.Reasons[0].Rule != "significant_drop" || g.Reasons[0].Level != "pooled" {
		t.Errorf("gate %+v, want one pooled significant drop", doc.Gate)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal([]byte(out), &raw)
	for _, field := range []string{"alpha", "compared", "paired_by", "token_basis", "header", "pairing", "deltas", "pooled", "gate", "notes"} {
		if _, ok := raw[field]; !ok {
			t.Errorf("the JSON lacks %q", field)
		}
	}
	noGate, _, _ := compareExit(t, old, drop, "--format", "json")
	if strings.Contains(noGate, `"gate"`) {
		t.Errorf("without --fail-on the JSON holds a gate")
	}
	md, _, code := compareExit(t, old, drop, "--fail-on", "regression", "--format", "markdown")
	lines := strings.Split(md, "\n")
	if code != 1 || len(lines) < 4 || lines[0] != "# bench compare" || !strings.HasPrefix(lines[2], "- gate: REGRESSION") || !strings.Contains(lines[3], "pooled agent") {
		t.Errorf("exit %d; markdown does not lead with the verdict and its reason:\n%s", code, md)
	}
}

// TestReportPoolsAgentAgainstWorkflow: bench report holds, within one run,
// the pooled answer of the agent against the workflow over the tasks: the
// stratified test (here McNemar over the discordant pairs summed over
// tasks), the difference with its interval, the token ratio, in JSON, text
// and Markdown.
func TestReportPoolsAgentAgainstWorkflow(t *testing.T) {
	t.Parallel()
	var eps []record.Episode
	for _, task := range []string{"a", "b", "c", "d"} {
		for s := 1; s <= 4; s++ {
			eps = append(eps, countingEp(task, "workflow", "m", s, 0, s > 2, 1000), countingEp(task, "agent", "m", s, 0, true, 5000+s))
		}
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}}, eps...)
	var rep struct {
		Pooled []struct {
			New, Old, Model string
			TokenBasis      string `json:"token_basis"`
			Tasks           int
			Pass            struct {
				Test struct {
					Name string
					P    float64
				}
				Difference struct {
					Estimate float64
					Interval *struct{ Low, High float64 }
				}
			}
			Tokens struct {
				Ratio *struct{ Estimate float64 }
			}
		}
	}
	countingJSON(t, &rep, "report", "--format", "json", dir)
	if len(rep.Pooled) != 1 {
		t.Fatalf("pooled = %+v, want agent against workflow", rep.Pooled)
	}
	p := rep.Pooled[0]
	if p.New != "agent" || p.Old != "workflow" || p.Tasks != 4 || p.Pass.Test.Name != "stratified-exact" || p.TokenBasis != "reported" {
		t.Errorf("pooled %+v", p)
	}
	if want := compareBinomialP(0, 8); math.Abs(p.Pass.Test.P-want) > 1e-9 || p.Pass.Difference.Estimate != 0.5 || p.Pass.Difference.Interval == nil {
		t.Errorf("pooled p %v, difference %+v; want %v and +0.5 with an interval", p.Pass.Test.P, p.Pass.Difference, want)
	}
	// Medians: the agent's 5002.5 (5001..5004 over every task), the workflow's 1000.
	if r := p.Tokens.Ratio; r == nil || math.Abs(r.Estimate-5.0025) > 1e-9 {
		t.Errorf("token ratio %+v, want 5002.5/1000", r)
	}
	text, _, _ := runCLI(t, "report", dir)
	md, _, _ := runCLI(t, "report", "--format", "markdown", dir)
	for _, want := range []string{"Agent against workflow, pooled over tasks", "stratified exact p=0.008 changed", "+50.0pp ["} {
		if !strings.Contains(text, want) || !strings.Contains(md, want) {
			t.Errorf("text or markdown lacks %q:\n%s\n%s", want, text, md)
		}
	}
}

// TestReportPoolsPairsWithinRuns: two runs merged in one report, one
// holding the agent and the other the workflow on the same seeds, have no
// pair (seeds of two runs are not matched draws): the pooled answer is
// unpaired. The control, both tracks in one run, pairs.
func TestReportPoolsPairsWithinRuns(t *testing.T) {
	t.Parallel()
	var agent, workflow, both []record.Episode
	for s := 1; s <= 4; s++ {
		a, w := countingEp("a", "agent", "m", s, 0, true, 5000), countingEp("a", "workflow", "m", s, 0, s > 2, 1000)
		agent, workflow, both = append(agent, a), append(workflow, w), append(both, a, w)
	}
	base := t.TempDir()
	run := record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}}
	one := countingRun(t, filepath.Join(base, "agent", "run"), run, agent...)
	two := countingRun(t, filepath.Join(base, "workflow", "run"), run, workflow...)
	together := countingRun(t, filepath.Join(base, "both", "run"), run, both...)
	var rep struct {
		Pooled []struct {
			PairedTasks   int `json:"paired_tasks"`
			UnpairedTasks int `json:"unpaired_tasks"`
			Pass          struct {
				Test struct{ Name string }
			}
		}
	}
	countingJSON(t, &rep, "report", "--format", "json", one, two)
	if len(rep.Pooled) != 1 || rep.Pooled[0].PairedTasks != 0 || rep.Pooled[0].UnpairedTasks != 1 {
		t.Errorf("agent and workflow from two runs: %+v, want one unpaired task", rep.Pooled)
	}
	countingJSON(t, &rep, "report", "--format", "json", together)
	if len(rep.Pooled) != 1 || rep.Pooled[0].PairedTasks != 1 {
		t.Errorf("agent and workflow of one run: %+v, want one paired task", rep.Pooled)
	}
}
