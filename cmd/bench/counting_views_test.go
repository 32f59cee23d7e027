package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/record/recordtest"
)

// These tests reproduce, through the real CLI, each way the views of one
// set of run folders disagreed on what a run counts. Their expected values
// are counted by hand from the episodes each test writes.

// countingStarted is when the runs of these tests started.
var countingStarted = time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)

// countingEp is an episode of task, track and model with seed and repeat:
// a pass of 3/3 tests, or a failure of 1/3, with the given tokens.
func countingEp(task, track, model string, seed, repeat int, passed bool, tokens int) record.Episode {
	ep := record.Episode{Task: task, Track: track, Model: model, Seed: seed, Repeat: repeat, Passed: passed,
		TestsPassed: 1, TestsTotal: 3, ExitReason: record.ExitDone, Turns: 1,
		PromptTokens: tokens, EstPromptTokens: tokens, ToolCalls: []string{}, Steps: []string{fmt.Sprintf("%08x", seed)}}
	if passed {
		ep.TestsPassed = 3
	}
	return ep
}

// countingRun writes a run folder dir of run (its tasks, tracks and seeds
// taken from the episodes when run has none) holding eps, and returns dir.
func countingRun(t *testing.T, dir string, run record.Run, eps ...record.Episode) string {
	t.Helper()
	if run.ID == "" {
		run.ID = filepath.Base(dir)
	}
	if run.Started.IsZero() {
		run.Started = countingStarted
	}
	add := func(list []string, s string) []string {
		for _, x := range list {
			if x == s {
				return list
			}
		}
		return append(list, s)
	}
	var tasks []string
	for _, ep := range eps {
		tasks = add(tasks, ep.Task)
		if len(run.Tracks) == 0 || !strings.Contains(strings.Join(run.Tracks, ","), ep.Track) {
			run.Tracks = add(run.Tracks, ep.Track)
		}
	}
	if len(run.Tasks) == 0 {
		for _, name := range tasks {
			run.Tasks = append(run.Tasks, record.TaskRef{Name: name, Checksum: "sha256:00"})
		}
	}
	if len(run.Seeds) == 0 {
		run.Seeds = []int{1}
	}
	recordtest.Write(t, dir, run, eps...)
	return dir
}

// countingJSON runs bench with args and decodes its stdout into v.
func countingJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, errOut, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("bench %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("bench %s: not JSON (%v):\n%s", strings.Join(args, " "), err, out)
	}
}

// countingRows is the rows of a report's JSON document.
type countingRows struct {
	Runs []struct {
		UID, Label string
		Unfinished int
		Resume     string
	} `json:"runs"`
	Rows []struct {
		Task, Track, Model string
		N, Passed          int
		Lost               int
		Interrupted        int
		NotRun             int      `json:"not_run"`
		Rate               *float64 `json:"rate"`
		Wilson             *struct{ Low, High float64 }
		PassAtK            []struct{} `json:"pass_at_k"`
		MedianTokens       *float64   `json:"median_tokens"`
	} `json:"rows"`
	Tracks []struct {
		Track, Model      string
		Tasks, Solved, N  int
		TasksSolved       int `json:"tasks_solved"`
		TasksNotCounted   int `json:"tasks_not_counted"`
		Rate              *float64
		Wilson            *struct{ Low, High float64 }
		Passed            int
		Lost, Interrupted int
	} `json:"tracks"`
	Ratios []struct {
		Task, Model, Num, Den string
		NumN                  int `json:"num_n"`
		DenN                  int `json:"den_n"`
		Ratio                 float64
		Bootstrap95           *struct{ Low, High float64 } `json:"bootstrap95"`
	} `json:"ratios"`
	McNemar []struct {
		Task, Model    string
		OnlyA          int `json:"only_a"`
		OnlyB          int `json:"only_b"`
		NeedDiscordant int `json:"need_discordant"`
		Notes          []int
	} `json:"mcnemar"`
	Footnotes []struct {
		ID   int
		Text string
	} `json:"footnotes"`
}

// row returns the report's row of task, track and model.
func (r countingRows) row(t *testing.T, task, track, model string) (n, passed int) {
	t.Helper()
	for _, x := range r.Rows {
		if x.Task == task && x.Track == track && x.Model == model {
			return x.N, x.Passed
		}
	}
	t.Fatalf("no row %s/%s/%s among %+v", task, track, model, r.Rows)
	return 0, 0
}

// TestReportTwoRunsOfOneFolderName: two runs whose folders are both called
// run are two runs, 6/12 merged (the folder name made them one run given
// twice: 3/6 and a footnote); the same folder given twice, and a copy of
// an old folder without a uid, are one run, counted once.
func TestReportTwoRunsOfOneFolderName(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	var eps []record.Episode
	for s := 1; s <= 6; s++ {
		eps = append(eps, countingEp("leap_year", "workflow", "m", s, 0, s <= 3, 100))
	}
	run := record.Run{Model: "m", Seeds: []int{1, 2, 3, 4, 5, 6}}
	a := countingRun(t, filepath.Join(base, "lesson1", "run"), run, eps...)
	b := countingRun(t, filepath.Join(base, "lesson2", "run"), run, eps...)
	var rep countingRows
	countingJSON(t, &rep, "report", a, b, "--format", "json")
	if n, passed := rep.row(t, "leap_year", "workflow", "m"); n != 12 || passed != 6 {
		t.Errorf("two runs of one folder name: %d/%d, want 6/12", passed, n)
	}
	if len(rep.Runs) != 2 || rep.Runs[0].UID == rep.Runs[1].UID || rep.Runs[0].Label == rep.Runs[1].Label {
		t.Errorf("runs %+v: want two, of different identities and labels", rep.Runs)
	}
	text, _, _ := runCLI(t, "report", a, b)
	if strings.Contains(text, "given 2 times") || !strings.Contains(text, " leap_year  workflow  6/12 ") {
		t.Errorf("the text report:\n%s", text)
	}
	countingJSON(t, &rep, "report", a, a, "--format", "json")
	if n, passed := rep.row(t, "leap_year", "workflow", "m"); n != 6 || passed != 3 {
		t.Errorf("one run given twice: %d/%d, want 3/6", passed, n)
	}
	// An old folder (no uid in run.json) and a copy of it are one run; two
	// old folders of one name but different runs are two.
	oldA, oldB := filepath.Join(base, "old1", "run"), filepath.Join(base, "old2", "run")
	copyA := filepath.Join(base, "copy", "run")
	for _, d := range []struct{ dir, from, started string }{{oldA, a, ""}, {oldB, b, "2026-11-30T09:00:00Z"}, {copyA, a, ""}} {
		countingCopy(t, d.from, d.dir, func(run map[string]any) {
			delete(run, "uid")
			if d.started != "" {
				run["started"] = d.started // two runs never start at the same instant
			}
		})
	}
	countingJSON(t, &rep, "report", oldA, copyA, "--format", "json")
	if n, _ := rep.row(t, "leap_year", "workflow", "m"); n != 6 {
		t.Errorf("an old folder and its copy: n = %d, want 6 (one run)", n)
	}
	countingJSON(t, &rep, "report", oldA, oldB, "--format", "json")
	if n, _ := rep.row(t, "leap_year", "workflow", "m"); n != 12 {
		t.Errorf("two old folders of one name: n = %d, want 12 (two runs)", n)
	}
}

// countingCopy copies the run folder from into to, editing run.json.
func countingCopy(t *testing.T, from, to string, edit func(map[string]any)) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(from, record.RunFile))
	if err != nil {
		t.Fatal(err)
	}
	var run map[string]any
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	edit(run)
	raw, _ = json.MarshalIndent(run, "", "  ")
	eps, err := os.ReadFile(filepath.Join(from, record.EpisodesFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, record.RunFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, record.EpisodesFile), eps, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReportSeveralModelsGivenTwice: a run of three models given twice
// keeps all 18 rows (3 models × 2 tasks × 3 tracks), each counted once;
// the first model's 6 were all that was left.
func TestReportSeveralModelsGivenTwice(t *testing.T) {
	t.Parallel()
	models := []string{"m1", "m2", "m3"}
	run := record.Run{Model: strings.Join(models, ","), Seeds: []int{1, 2}, Tracks: []string{"workflow", "workflow-retry", "agent"}}
	for _, m := range models {
		run.Models = append(run.Models, record.ModelRef{Name: m})
	}
	var eps []record.Episode
	for _, m := range models {
		for _, task := range []string{"leap_year", "slugify"} {
			for _, tr := range run.Tracks {
				for s := 1; s <= 2; s++ {
					eps = append(eps, countingEp(task, tr, m, s, 0, s == 1, 100))
				}
			}
		}
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), run, eps...)
	var rep countingRows
	countingJSON(t, &rep, "report", dir, dir, "--format", "json")
	if len(rep.Rows) != 18 {
		t.Fatalf("%d rows, want 18", len(rep.Rows))
	}
	for _, r := range rep.Rows {
		if r.N != 2 || r.Passed != 1 {
			t.Errorf("row %s/%s/%s: %d/%d, want 1/2", r.Task, r.Track, r.Model, r.Passed, r.N)
		}
	}
}

// TestCheckCountsAsTheReport: check tallies each task exactly as the
// report's rows do: a lost episode whose line says passed is in no tally,
// an inconsistent line is a failure, a run given twice counts once, and
// each model is scored on its own. It used to count the lost and
// inconsistent lines as passes (workflow 3/4, "workflow") and pool models.
func TestCheckCountsAsTheReport(t *testing.T) {
	lost := countingEp("leap_year", "workflow", "m1", 2, 0, true, 100)
	lost.ExitReason, lost.ErrorKind = record.ExitError, record.ErrorServer
	inconsistent := countingEp("leap_year", "workflow", "m1", 3, 0, true, 100)
	inconsistent.TestsPassed = 2
	timedOut := countingEp("leap_year", "agent", "m1", 4, 0, true, 100)
	timedOut.GradingTimedOut = true
	eps := []record.Episode{
		countingEp("leap_year", "workflow", "m1", 1, 0, true, 100), lost, inconsistent,
		countingEp("leap_year", "workflow", "m1", 4, 0, false, 100),
		countingEp("leap_year", "agent", "m1", 1, 0, true, 100), countingEp("leap_year", "agent", "m1", 2, 0, true, 100),
		countingEp("leap_year", "agent", "m1", 3, 0, false, 100), timedOut,
		countingEp("leap_year", "workflow", "m2", 1, 0, true, 100), countingEp("leap_year", "workflow", "m2", 2, 0, true, 100),
		countingEp("leap_year", "workflow", "m2", 3, 0, true, 100), countingEp("leap_year", "workflow", "m2", 4, 0, false, 100),
		countingEp("leap_year", "agent", "m2", 1, 0, false, 100), countingEp("leap_year", "agent", "m2", 2, 0, false, 100),
		countingEp("leap_year", "agent", "m2", 3, 0, false, 100), countingEp("leap_year", "agent", "m2", 4, 0, false, 100),
	}
	run := record.Run{Model: "m1,m2", Models: []record.ModelRef{{Name: "m1"}, {Name: "m2"}}, Seeds: []int{1, 2, 3, 4}, Tracks: []string{"workflow", "agent"}}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), run, eps...)
	predictions := filepath.Join(t.TempDir(), "p.json")
	fakePredictEnv(t, countingStarted.Add(-time.Hour), false)
	if _, _, err := runCLI(t, "predict", "--tasks", "leap_year", "--out", predictions, "--answer", "leap_year=yyy"); err != nil {
		t.Fatal(err)
	}
	var score struct {
		Rows []struct {
			Task, Model, Workflow, Agent, Observed string
		}
		Right, Counted int
	}
	countingJSON(t, &score, "check", "--predictions", predictions, dir, dir, "--format", "json")
	// By hand: m1's workflow counts seeds 1, 3 (inconsistent: failed) and
	// 4, not the lost seed 2: 1/3, not most; its agent passes seeds 1 and 2
	// of 4 (seed 4's grading timed out): 2/4, a tie, not most: neither.
	// m2's workflow passes 3 of 4: workflow.
	want := map[string][3]string{"m1": {"1/3", "2/4", "neither"}, "m2": {"3/4", "0/4", "workflow"}}
	if len(score.Rows) != 2 {
		t.Fatalf("check rows %+v: want one per model", score.Rows)
	}
	for _, r := range score.Rows {
		w := want[r.Model]
		if r.Workflow != w[0] || r.Agent != w[1] || r.Observed != w[2] {
			t.Errorf("model %s: workflow %s, agent %s, observed %s; want %s, %s, %s", r.Model, r.Workflow, r.Agent, r.Observed, w[0], w[1], w[2])
		}
	}
	var rep countingRows
	countingJSON(t, &rep, "report", dir, dir, "--format", "json")
	for model, w := range want {
		n, passed := rep.row(t, "leap_year", "workflow", model)
		if got := fmt.Sprintf("%d/%d", passed, n); got != w[0] {
			t.Errorf("the report's %s workflow row %s, check's %s", model, got, w[0])
		}
	}
	if score.Right != 1 || score.Counted != 2 {
		t.Errorf("score %d/%d, want 1/2 (m2 right, m1 neither)", score.Right, score.Counted)
	}
}

// TestReportInterruptedRunIsIncomplete: an interrupted episode counts in
// no rate (it counted as a failure until --resume), the report says the
// run is incomplete and how to finish it, and a planned task that never
// ran shows – with its planned episodes, not 0/0.
func TestReportInterruptedRunIsIncomplete(t *testing.T) {
	t.Parallel()
	cut := countingEp("leap_year", "workflow", "m", 2, 0, false, 100)
	cut.ExitReason = record.ExitInterrupted
	run := record.Run{Model: "m", Seeds: []int{1, 2}, Tracks: []string{"workflow"},
		Tasks: []record.TaskRef{{Name: "leap_year", Checksum: "sha256:00"}, {Name: "slugify", Checksum: "sha256:00"}}}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), run, countingEp("leap_year", "workflow", "m", 1, 0, true, 100), cut)
	var rep countingRows
	countingJSON(t, &rep, "report", dir, "--format", "json")
	if n, passed := rep.row(t, "leap_year", "workflow", "m"); n != 1 || passed != 1 {
		t.Errorf("leap_year: %d/%d, want 1/1 (the interrupted episode is in no rate)", passed, n)
	}
	for _, r := range rep.Rows {
		if r.Task == "slugify" && (r.N != 0 || r.NotRun != 2 || r.Rate != nil || r.Wilson != nil || r.MedianTokens != nil) {
			t.Errorf("slugify, never run: %+v; want n 0, 2 not run, no rate, interval or median", r)
		}
	}
	// " 0/0 " as a cell: the temp folder's name may hold "0/0" itself.
	want := "incomplete: 3 of 4 planned episodes have not finished (1 interrupted, 2 never started); finish the run with: bench run --resume " + dir
	text, _, err := runCLI(t, "report", dir)
	if err != nil || !strings.Contains(text, want) || !strings.Contains(text, " slugify    workflow  –  ") || strings.Contains(text, " 0/0 ") {
		t.Errorf("the text report (err %v) lacks %q or shows slugify as 0/0:\n%s", err, want, text)
	}
	if len(rep.Runs) != 1 || rep.Runs[0].Unfinished != 3 || rep.Runs[0].Resume != "bench run --resume "+dir {
		t.Errorf("runs %+v", rep.Runs)
	}
}

// TestPageKeepsModelsApart: on the page, each model's ratio row shows its
// own ratio (every row showed the last model's), the headline's "which"
// lists the tasks that model solved, and tool sequences are per model.
func TestPageKeepsModelsApart(t *testing.T) {
	t.Parallel()
	run := record.Run{Model: "m1,m2", Models: []record.ModelRef{{Name: "m1"}, {Name: "m2"}}, Seeds: []int{1, 2}, Tracks: []string{"workflow", "agent"}}
	var eps []record.Episode
	for s := 1; s <= 2; s++ {
		a1 := countingEp("leap_year", "agent", "m1", s, 0, true, 1000)
		a1.ToolCalls = []string{"read_file"}
		a2 := countingEp("leap_year", "agent", "m2", s, 0, false, 300)
		a2.ToolCalls = []string{"list_files"}
		eps = append(eps, countingEp("leap_year", "workflow", "m1", s, 0, false, 100), a1,
			countingEp("leap_year", "workflow", "m2", s, 0, false, 100), a2)
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), run, eps...)
	page, errOut, err := runCLI(t, "report", dir, "--format", "html")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{">10.00<", ">3.00<", ">agent · m2</td><td>0/1</td><td>none<", ">agent · m1</td><td>1/1</td><td>leap_year<"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Count(page, ">10.00<") != 1 {
		t.Errorf("m1's ratio 10.00 shows %d times, want once (m2's is 3.00)", strings.Count(page, ">10.00<"))
	}
	seq := page[strings.Index(page, `id="sequences"`):]
	if i := strings.Index(seq, "</section>"); i > 0 {
		seq = seq[:i]
	}
	if !strings.Contains(seq, "agent · m1") || !strings.Contains(seq, "agent · m2") {
		t.Errorf("the tool sequences pool the models:\n%s", seq)
	}
}

// TestCompareTokensAndTooFew: a side whose server reported no tokens is
// compared in estimated tokens (a reported median of 0 showed a change
// that is not there); "too few" is per measure, right for unequal sides
// and for every alpha (at 0.1, 3+3 is too few for the U test: its
// smallest p, 2/C(6,3), is 0.1 itself); with several models the text and
// the CSV name each row's model.
func TestCompareTokensAndTooFew(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	// The second side's seeds start at 101: the sides share none, so each
	// row is unpaired (Fisher, Mann-Whitney), which is what this test is of.
	first := map[bool]int{false: 1, true: 101}
	side := false
	mk := func(name, model string, n, tokens int, reported bool) string {
		var eps []record.Episode
		side = !side
		for s := first[!side]; s < first[!side]+n; s++ {
			ep := countingEp("leap_year", "agent", model, s, 0, s%2 == 0, tokens+s-first[!side]+1)
			if !reported {
				ep.PromptTokens = 0
			}
			eps = append(eps, ep)
		}
		seeds := make([]int, n)
		for i := range seeds {
			seeds[i] = first[!side] + i
		}
		return countingRun(t, filepath.Join(base, name, "run"), record.Run{Model: model, Seeds: seeds}, eps...)
	}
	var cmp struct {
		Need   int `json:"need_per_side"`
		Deltas []struct {
			Model         string
			TokenBasis    string  `json:"token_basis"`
			TokensP       float64 `json:"tokens_p"`
			RateTooFew    bool    `json:"rate_too_few"`
			TokensTooFew  bool    `json:"tokens_too_few"`
			TokensChanged bool    `json:"tokens_significant"`
		}
	}
	countingJSON(t, &cmp, "compare", mk("a", "m", 6, 1000, true), mk("b", "m", 6, 1000, false), "--format", "json")
	if d := cmp.Deltas[0]; d.TokenBasis != "estimated" || d.TokensChanged {
		t.Errorf("one side without reported tokens: %+v; want estimated tokens and no change", d)
	}
	countingJSON(t, &cmp, "compare", mk("c", "m", 3, 1000, true), mk("d", "m", 3, 2000, true), "--format", "json", "--alpha", "0.1")
	if d := cmp.Deltas[0]; !d.TokensTooFew || d.TokensChanged || cmp.Need != 4 {
		t.Errorf("3+3 at α = 0.1: %+v, need %d; want too few (2/C(6,3) = 0.1 is not below 0.1), need 4", d, cmp.Need)
	}
	countingJSON(t, &cmp, "compare", mk("e", "m", 4, 1000, true), mk("f", "m", 4, 2000, true), "--format", "json", "--alpha", "0.1")
	if d := cmp.Deltas[0]; d.TokensTooFew || !d.TokensChanged {
		t.Errorf("4+4 at α = 0.1: %+v; want a change (2/C(8,4) = 0.029)", d)
	}
	// Unequal sides at 0.05: 2+10 can show a change of tokens (2/C(12,2) =
	// 0.030) but not of pass rate: with 6 of the 12 passed, Fisher's
	// smallest p is 2·C(6,2)/C(12,2) = 30/66; 1+10 can show neither (2/11).
	countingJSON(t, &cmp, "compare", mk("g", "m", 2, 1000, true), mk("h", "m", 10, 2000, true), "--format", "json")
	if d := cmp.Deltas[0]; d.TokensTooFew || !d.RateTooFew {
		t.Errorf("2+10: %+v; want tokens not too few, pass rate too few", d)
	}
	countingJSON(t, &cmp, "compare", mk("i", "m", 1, 1000, true), mk("j", "m", 10, 2000, true), "--format", "json")
	if d := cmp.Deltas[0]; !d.TokensTooFew || !d.RateTooFew {
		t.Errorf("1+10: %+v; want both too few", d)
	}
	// Several models: the text and the CSV carry the model.
	run := record.Run{Model: "m1,m2", Models: []record.ModelRef{{Name: "m1"}, {Name: "m2"}}, Seeds: []int{1}}
	two := countingRun(t, filepath.Join(base, "two", "run"), run, countingEp("leap_year", "agent", "m1", 1, 0, true, 10), countingEp("leap_year", "agent", "m2", 1, 0, true, 10))
	text, _, _ := runCLI(t, "compare", two, two)
	csv, _, _ := runCLI(t, "compare", two, two, "--format", "csv")
	if !strings.Contains(text, " m1 ") || !strings.Contains(text, " m2 ") || !strings.Contains(csv, "leap_year,agent,m1,m1,") || !strings.Contains(csv, "leap_year,agent,m2,m2,") {
		t.Errorf("compare of two models does not name them:\n%s\n%s", text, csv)
	}
}

// TestSmallNIsHonest: a row of no counted episode prints – and is null in
// JSON (it printed 0.00 [0.00, 1.00]); a task with no counted episode is
// neither solved nor unsolved; the bootstrap interval of a token ratio is
// left out below 4 episodes a side, where its coverage falls under 90%;
// McNemar with fewer than 6 discordant pairs says it cannot reach 0.05.
func TestSmallNIsHonest(t *testing.T) {
	t.Parallel()
	var eps []record.Episode
	for s := 1; s <= 3; s++ {
		eps = append(eps, countingEp("leap_year", "workflow", "m", s, 0, false, 100*s), countingEp("leap_year", "agent", "m", s, 0, true, 1000*s))
	}
	for s := 1; s <= 3; s++ {
		lost := countingEp("slugify", "agent", "m", s, 0, true, 0)
		lost.ExitReason, lost.ErrorKind = record.ExitError, record.ErrorUnreachable
		eps = append(eps, lost)
	}
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3}, Tracks: []string{"workflow", "agent"}}, eps...)
	var rep countingRows
	countingJSON(t, &rep, "report", dir, "--format", "json")
	for _, r := range rep.Rows {
		if r.Task == "slugify" && r.Track == "agent" && (r.N != 0 || r.Lost != 3 || r.Rate != nil || r.Wilson != nil || r.MedianTokens != nil || r.PassAtK == nil || len(r.PassAtK) != 0) {
			t.Errorf("slugify agent, all lost: %+v; want n 0, rate, interval and median null, pass@k []", r)
		}
	}
	for _, tr := range rep.Tracks {
		if tr.Track == "agent" && (tr.Tasks != 1 || tr.TasksSolved != 1 || tr.TasksNotCounted != 1) {
			t.Errorf("agent track: %+v; want 1/1 tasks solved, 1 not counted", tr)
		}
	}
	if len(rep.Ratios) != 1 || rep.Ratios[0].NumN != 3 || rep.Ratios[0].Bootstrap95 != nil {
		t.Errorf("ratios %+v: want no interval with 3 a side", rep.Ratios)
	}
	if len(rep.McNemar) != 1 || rep.McNemar[0].OnlyA != 3 || rep.McNemar[0].NeedDiscordant != 6 || len(rep.McNemar[0].Notes) == 0 {
		t.Errorf("mcnemar %+v: 3 discordant pairs, want a note that 6 are needed", rep.McNemar)
	}
	text, _, _ := runCLI(t, "report", dir)
	for _, want := range []string{
		" slugify    agent     –       3     0           –  ",
		"McNemar needs >= 6 discordant pairs",
		"no bootstrap interval for a token ratio with fewer than 4 counted episodes on a side",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0.00 [0.00, 1.00]") || regexp.MustCompile(`(^|\s)0/0(\s|$)`).MatchString(text) { // a count, not a temp dir's "…670/001"
		t.Errorf("the text report shows a rate or 0/0 for n = 0:\n%s", text)
	}
	// With 4 a side the interval is there.
	for s := 4; s <= 4; s++ {
		eps = append(eps, countingEp("leap_year", "workflow", "m", s, 0, false, 100*s), countingEp("leap_year", "agent", "m", s, 0, true, 1000*s))
	}
	dir = countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Seeds: []int{1, 2, 3, 4}, Tracks: []string{"workflow", "agent"}}, eps...)
	countingJSON(t, &rep, "report", dir, "--format", "json")
	if len(rep.Ratios) != 1 || rep.Ratios[0].Bootstrap95 == nil {
		t.Errorf("ratios %+v: want an interval with 4 a side", rep.Ratios)
	}
}

// TestLatePredictionSaysSubSecondTimes: a prediction written 300 ms after
// the run started is refused with both times to the fraction of a second
// ("predicted 22:00:00Z, but run started 22:00:00Z" said nothing).
func TestLatePredictionSaysSubSecondTimes(t *testing.T) {
	dir := countingRun(t, filepath.Join(t.TempDir(), "run"), record.Run{Model: "m", Started: countingStarted.Add(250 * time.Millisecond)},
		countingEp("leap_year", "workflow", "m", 1, 0, true, 1))
	predictions := filepath.Join(t.TempDir(), "p.json")
	fakePredictEnv(t, countingStarted.Add(300*time.Millisecond), false)
	if _, _, err := runCLI(t, "predict", "--tasks", "leap_year", "--out", predictions, "--answer", "leap_year=yyy"); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "check", "--predictions", predictions, dir)
	if err == nil || !strings.Contains(err.Error(), "predicted 2026-11-29T22:00:00.3Z, but run "+dir+" started 2026-11-29T22:00:00.25Z") {
		t.Errorf("err = %v", err)
	}
}

// TestLostLineIsNotPassed: through bench run, an agent that writes the
// fix before its server goes away ends lost (its grading passes): its
// line in episodes.jsonl stands as "status": "lost" and not as "passed":
// true, so that a reader counting lines with jq counts what the report
// counts; a finished one says "status": "passed".
func TestLostLineIsNotPassed(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	fix, err := os.ReadFile("../../tasks/leap_year/solution/leap.py")
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"path": "leap.py", "content": string(fix)})
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		if len(r.Messages) > 0 && r.Messages[len(r.Messages)-1].Role == "tool" {
			return modeltest.Status(503) // the fix is written; the server goes away
		}
		return modeltest.Calls(modeltest.Call("write_file", string(args)))
	})))
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, _ := runCLI(t, "run", "--host", srv.URL, "--tasks", "leap_year", "--tracks", "oracle,agent", "--seeds", "1", "--retry-window", "0", "--timeout", "2s", "--out", dir)
	raw, err := os.ReadFile(filepath.Join(dir, record.EpisodesFile))
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
	}
	statuses := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		track, _ := l["track"].(string)
		status, _ := l["status"].(string)
		statuses[track] = status
		if l["exit_reason"] == record.ExitError && l["passed"] == true {
			t.Errorf("a lost line says passed: %s", line)
		}
	}
	if statuses["oracle"] != "passed" || statuses["agent"] != "lost" {
		t.Errorf("statuses %v, want the oracle passed and the agent lost\n%s", statuses, raw)
	}
}

// TestRunUID: a run gets a uid of its own, kept by --resume (which refuses
// --run-uid); two shards given the same --run-uid report as one run, two
// without it as two.
func TestRunUID(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	base := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		all := append([]string{"run", "--tracks", "oracle", "--tasks", "leap_year,slugify", "--seeds", "1"}, args...)
		if out, errOut, err := runCLI(t, all...); err != nil {
			t.Fatalf("bench %s: %v\n%s\n%s", strings.Join(all, " "), err, out, errOut)
		}
		return args[len(args)-1]
	}
	uid := func(dir string) string {
		var r struct{ UID string }
		raw, _ := os.ReadFile(filepath.Join(dir, record.RunFile))
		json.Unmarshal(raw, &r)
		return r.UID
	}
	one := run("--shard", "1/2", "--run-uid", "sweep-7", "--out", filepath.Join(base, "a"))
	two := run("--shard", "2/2", "--run-uid", "sweep-7", "--out", filepath.Join(base, "b"))
	other := run("--shard", "2/2", "--out", filepath.Join(base, "c"))
	if uid(one) != "sweep-7" || uid(two) != "sweep-7" || len(uid(other)) != 32 {
		t.Fatalf("uids %q %q %q", uid(one), uid(two), uid(other))
	}
	if _, _, err := runCLI(t, "run", "--resume", other, "--run-uid", "x"); err == nil || !strings.Contains(err.Error(), "drop --run-uid") {
		t.Errorf("--resume with --run-uid: err = %v", err)
	}
	before := uid(other)
	if _, errOut, err := runCLI(t, "run", "--resume", other); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if uid(other) != before {
		t.Errorf("--resume changed the uid from %q to %q", before, uid(other))
	}
	var rep countingRows
	countingJSON(t, &rep, "report", one, two, "--format", "json")
	if rep.Runs[0].UID != rep.Runs[1].UID || len(rep.Rows) != 2 {
		t.Errorf("two shards of one sweep: runs %+v, %d rows", rep.Runs, len(rep.Rows))
	}
	countingJSON(t, &rep, "report", one, other, "--format", "json")
	if rep.Runs[0].UID == rep.Runs[1].UID {
		t.Errorf("two shards of two sweeps share a uid: %+v", rep.Runs)
	}
}

// TestEveryViewAgrees: on one set of folders holding every case — two runs
// whose folders share a name, a run given twice, two models, the two
// shards of a sweep, lost, interrupted, inconsistent and timed-out
// episodes — the report's JSON, CSV and text, the page, check and compare
// count the same passes out of the same n for every task, track and model,
// as the test counts them itself.
func TestEveryViewAgrees(t *testing.T) {
	base := t.TempDir()
	type key struct{ task, track, model string }
	want := map[key][2]int{} // passed, n, counted by hand below
	count := func(ep record.Episode, counts bool) {
		lost := ep.ExitReason == record.ExitError && (ep.ErrorKind == record.ErrorServer || ep.ErrorKind == record.ErrorUnreachable)
		if !counts || lost || ep.ExitReason == record.ExitInterrupted {
			return
		}
		k := key{ep.Task, ep.Track, ep.Model}
		w := want[k]
		w[1]++
		if ep.Passed && ep.TestsPassed == ep.TestsTotal && !ep.GradingTimedOut {
			w[0]++
		}
		want[k] = w
	}
	variety := func(i int, ep record.Episode) record.Episode {
		switch i % 7 {
		case 1:
			ep.ExitReason, ep.ErrorKind = record.ExitError, record.ErrorServer // lost, though it says passed
		case 2:
			ep.ExitReason = record.ExitInterrupted
		case 3:
			ep.TestsPassed = 2 // inconsistent
		case 4:
			ep.GradingTimedOut = true
		case 5:
			ep.Passed, ep.TestsPassed = false, 1
		}
		return ep
	}
	mk := func(dir string, run record.Run, models []string, seeds []int, counts bool) string {
		var eps []record.Episode
		i := 0
		for _, m := range models {
			for _, task := range []string{"leap_year", "slugify"} {
				for _, tr := range []string{"workflow", "agent"} {
					for _, s := range seeds {
						i++
						ep := variety(i, countingEp(task, tr, m, s, 0, true, 100*s+i))
						eps = append(eps, ep)
						count(ep, counts)
					}
				}
			}
		}
		run.Seeds, run.Tracks = seeds, []string{"workflow", "agent"}
		if len(models) > 1 {
			run.Model = strings.Join(models, ",")
			for _, m := range models {
				run.Models = append(run.Models, record.ModelRef{Name: m})
			}
		} else {
			run.Model = models[0]
		}
		return countingRun(t, dir, run, eps...)
	}
	a := mk(filepath.Join(base, "x", "run"), record.Run{}, []string{"m1", "m2"}, []int{1, 2, 3}, true)
	b := mk(filepath.Join(base, "y", "run"), record.Run{}, []string{"m1"}, []int{1, 2, 3, 4}, true)
	s1 := mk(filepath.Join(base, "s1"), record.Run{UID: "sweep", Shard: &record.Shard{Index: 1, Count: 2}}, []string{"m2"}, []int{5}, true)
	s2 := mk(filepath.Join(base, "s2"), record.Run{UID: "sweep", Shard: &record.Shard{Index: 2, Count: 2}}, []string{"m2"}, []int{6}, true)
	dirs := []string{a, b, a, s1, s2} // a given twice: counted once
	var rep countingRows
	countingJSON(t, &rep, append([]string{"report", "--format", "json"}, dirs...)...)
	for k, w := range want {
		if n, passed := rep.row(t, k.task, k.track, k.model); n != w[1] || passed != w[0] {
			t.Errorf("json %v: %d/%d, want %d/%d", k, passed, n, w[0], w[1])
		}
	}
	csvOut, _, _ := runCLI(t, append([]string{"report", "--format", "csv"}, dirs...)...)
	for _, line := range strings.Split(strings.TrimSpace(csvOut), "\n")[1:] {
		f := strings.Split(line, ",")
		if f[2] == "" {
			continue // a pooled answer (no task), after the rows
		}
		w, ok := want[key{f[2], f[3], f[1]}]
		if !ok || f[4] != fmt.Sprint(w[1]) || f[6] != fmt.Sprint(w[0]) {
			t.Errorf("csv row %s: want passed %d of n %d", line, w[0], w[1])
		}
	}
	text, _, _ := runCLI(t, append([]string{"report"}, dirs...)...)
	page, _, _ := runCLI(t, append([]string{"report", "--format", "html"}, dirs...)...)
	results := text[strings.Index(text, "Results per task and track"):]
	for k, w := range want {
		frac := fmt.Sprintf("%d/%d", w[0], w[1])
		found := false
		for _, line := range strings.Split(results, "\n") {
			if f := strings.Fields(line); len(f) > 3 && f[0] == k.task && f[1] == k.track && f[2] == "("+k.model+")" {
				found = f[3] == frac
				break
			}
		}
		if !found {
			t.Errorf("the text's row %v is not %s", k, frac)
		}
		if !strings.Contains(page, `<td>`+k.task+`</td><td>`+k.track+`</td><td>`+k.model+`</td><td>`+frac+`</td>`) {
			t.Errorf("the page's row %v is not %s", k, frac)
		}
	}
	predictions := filepath.Join(t.TempDir(), "p.json")
	fakePredictEnv(t, countingStarted.Add(-time.Hour), false)
	runCLI(t, "predict", "--tasks", "leap_year,slugify", "--out", predictions, "--answer", "leap_year=yyy,slugify=nyy")
	var score struct {
		Rows []struct{ Task, Model, Workflow, Agent string }
	}
	countingJSON(t, &score, append([]string{"check", "--format", "json", "--predictions", predictions}, dirs...)...)
	for _, r := range score.Rows {
		for track, got := range map[string]string{"workflow": r.Workflow, "agent": r.Agent} {
			w := want[key{r.Task, track, r.Model}]
			if got != fmt.Sprintf("%d/%d", w[0], w[1]) {
				t.Errorf("check %s %s %s: %s, want %d/%d", r.Task, track, r.Model, got, w[0], w[1])
			}
		}
	}
	if len(score.Rows) != 4 {
		t.Errorf("check scored %d task and model rows, want 4", len(score.Rows))
	}
	out, _, err := runCLI(t, "compare", "--format", "json", a, b)
	if err != nil {
		t.Fatal(err)
	}
	var deltas struct {
		Deltas []map[string]any
	}
	json.Unmarshal([]byte(out), &deltas)
	for _, d := range deltas.Deltas {
		// a alone, against b alone: each side counted as its own report counts it.
		for side, dir := range map[string]string{"old": a, "new": b} {
			var one countingRows
			countingJSON(t, &one, "report", "--format", "json", dir)
			n, passed := one.row(t, d["task"].(string), d["track"].(string), d[map[string]string{"old": "old_model", "new": "model"}[side]].(string))
			if int(d[side+"_n"].(float64)) != n || int(d[side+"_passed"].(float64)) != passed {
				t.Errorf("compare %s side of %v: %v/%v, the report of %s %d/%d", side, d["task"], d[side+"_passed"], d[side+"_n"], dir, passed, n)
			}
		}
	}
	if len(deltas.Deltas) == 0 {
		t.Error("compare found nothing in common")
	}
}
