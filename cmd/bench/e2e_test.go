package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bench/detect"
	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/tasks"
)

// newLessonModel reproduces the lesson's workflow failures: on parse_date it
// fixes only the bug the traceback points at (the partial/ fix); on slugify
// it answers with the function alone and no FILE marker, so the naive
// fallback loses the module's import. The agent still solves everything.
func newLessonModel(t *testing.T) *testsupport.Solver {
	f := testsupport.NewSolver(t)
	all, _ := tasks.Load(tasks.Embedded())
	for _, task := range all {
		switch task.Name {
		case "parse_date":
			f.Workflow[task.Source] = testsupport.FileReply(task.Source, testsupport.TaskFile(t, task, "partial"))
		case "slugify":
			fn := regexp.MustCompile(`(?s)def slugify\(.*?\n\n`).FindString(f.Solutions[task.Source])
			if fn == "" {
				t.Fatal("no slugify function in the solution")
			}
			f.Workflow[task.Source] = "Here is the fixed function:\n\n```python\n" + fn + "```\n"
		}
	}
	return f
}

// runAgainst runs bench run on the course tasks against a fake Ollama
// serving m and returns the results folder.
func runAgainst(t *testing.T, m *testsupport.Solver, extra ...string) (string, record.Data) {
	t.Helper()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(m.Reply)))
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"run", "--host", srv.URL, "--tracks", "workflow,agent", "--seeds", "1", "--parallel", "2", "--out", dir}, extra...)
	stdout, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("bench run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data.Run.ModelDigest != modeltest.DefaultDigest {
		t.Errorf("run.json model digest %q, want the server's %q", data.Run.ModelDigest, modeltest.DefaultDigest)
	}
	for _, req := range srv.Requests() {
		if req.Options["seed"] == nil || req.Options["num_ctx"] == nil || req.Options["temperature"] == nil || req.Options["num_predict"] != float64(4096) {
			t.Fatalf("request %d lacks seed, num_ctx, temperature or the reply cap: %v", req.N, req.Options)
		}
	}
	return dir, data
}

// outcomes maps task/track to passed.
func outcomes(data record.Data) map[string]bool {
	got := map[string]bool{}
	for _, ep := range data.Episodes {
		got[ep.Task+"/"+ep.Track] = ep.Passed
	}
	return got
}

// TestEndToEndSolvingModel: against a model that solves every task, both
// tracks of a task pass, side by side (--parallel 2), with tokens, calls
// and the agent's tool calls recorded, and the report counts each (the
// scheduler and the pool are tested in package runner; the course's four
// tasks go through both tracks in TestEndToEndLessonFailures, full mode).
func TestEndToEndSolvingModel(t *testing.T) {
	t.Parallel()
	dir, data := runAgainst(t, testsupport.NewSolver(t), "--tasks", "leap_year")
	passes := map[string]int{}
	for _, ep := range data.Episodes {
		passes[ep.Task+"/"+ep.Track] = 1
	}
	checkReportRows(t, dir, passes)
	if len(data.Episodes) != 2 {
		t.Fatalf("%d episodes, want 2", len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if !ep.Passed || ep.ExitReason != record.ExitDone || ep.Error != "" {
			t.Errorf("%s: passed %v, exit %s, error %q", ep.Key(), ep.Passed, ep.ExitReason, ep.Error)
		}
		if ep.PromptTokens == 0 || ep.EstPromptTokens == 0 || ep.ModelCalls == 0 {
			t.Errorf("%s: tokens or calls not recorded: %+v", ep.Key(), ep)
		}
		if ep.Track == "agent" && strings.Join(ep.ToolCalls, ",") != "list_files,write_file,run_tests" {
			t.Errorf("%s: tool calls %q", ep.Key(), ep.ToolCalls)
		}
	}
}

func TestEndToEndLessonFailures(t *testing.T) {
	fixture.FullOnly(t, "TestEndToEndSolvingModel and TestEndToEndPostureOn")
	t.Parallel()
	// The lesson's predictions, written before the run: only parse_date was
	// expected to need the agent; slugify's lost import was its one miss.
	preds := filepath.Join(t.TempDir(), "predictions.json")
	args := []string{"predict", "--out", preds}
	for _, a := range []string{"parse_date=ynn", "slugify=yyy", "word_freq=yyy", "leap_year=yyy"} {
		args = append(args, "--answer", a)
	}
	if _, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("bench predict: %v\n%s", err, stderr)
	}
	dir, data := runAgainst(t, newLessonModel(t))
	want := map[string]bool{
		"parse_date/workflow": false, "slugify/workflow": false,
		"word_freq/workflow": true, "leap_year/workflow": true,
		"parse_date/agent": true, "slugify/agent": true, "word_freq/agent": true, "leap_year/agent": true,
	}
	got := outcomes(data)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s passed %v, want %v", k, got[k], w)
		}
	}
	for _, ep := range data.Episodes {
		switch ep.Task + "/" + ep.Track {
		case "parse_date/workflow":
			if len(ep.FailedTests) == 0 || ep.TestsPassed == 0 {
				t.Errorf("parse_date workflow should pass some tests and fail the masked one: %d/%d, failed %q", ep.TestsPassed, ep.TestsTotal, ep.FailedTests)
			}
		case "slugify/workflow":
			if ep.TestsPassed != 0 {
				t.Errorf("slugify without its import should fail every test, passed %d", ep.TestsPassed)
			}
		}
	}
	checkReportRows(t, dir, map[string]int{
		"parse_date/workflow": 0, "slugify/workflow": 0, "word_freq/workflow": 1, "leap_year/workflow": 1,
		"parse_date/agent": 1, "slugify/agent": 1, "word_freq/agent": 1, "leap_year/agent": 1,
	})
	stdout, stderr, err := runCLI(t, "check", "--predictions", preds, dir)
	if err != nil {
		t.Fatalf("bench check: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "score: 3/4 predictions right") {
		t.Fatalf("bench check did not score the lesson's 3/4:\n%s", stdout)
	}
}

// checkReportRows runs bench report --format json on dir and checks each
// task/track row's passes out of one episode.
func checkReportRows(t *testing.T, dir string, want map[string]int) {
	t.Helper()
	stdout, stderr, err := runCLI(t, "report", dir, "--format", "json")
	if err != nil {
		t.Fatalf("bench report: %v\n%s", err, stderr)
	}
	var rep struct {
		Rows []struct {
			Task, Track string
			N, Passed   int
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("bench report --format json: %v\n%s", err, stdout)
	}
	got := map[string]int{}
	for _, r := range rep.Rows {
		if r.N != 1 {
			t.Errorf("report row %s/%s has n = %d, want 1", r.Task, r.Track, r.N)
		}
		got[r.Task+"/"+r.Track] = r.Passed
	}
	if len(got) != len(want) {
		t.Errorf("report has %d rows, want %d: %v", len(got), len(want), got)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("report row %s: %d passed, want %d", k, got[k], w)
		}
	}
}

// TestEndToEndModelFailureIsRecorded makes the server fail one call for
// good with an answer that stands (413: the conversation is larger than the
// server accepts): that episode is recorded with exit error, its kind and
// the message, and the run goes on to the next.
func TestEndToEndModelFailureIsRecorded(t *testing.T) {
	fixture.FullOnly(t, "TestEndToEndSolvingModel and runner's episode tests")
	t.Parallel()
	solver := testsupport.NewSolver(t)
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		if r.N == 0 {
			return modeltest.StatusText(413, "the fake refuses this request")
		}
		return solver.Reply(r)
	})))
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tracks", "workflow", "--tasks", "leap_year,word_freq", "--out", dir)
	if err != nil {
		t.Fatalf("a run with one failed call failed: %v\n%s\n%s", err, stdout, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Episodes) != 2 {
		t.Fatalf("%d episodes, want 2", len(data.Episodes))
	}
	first, second := data.Episodes[0], data.Episodes[1]
	if first.ExitReason != record.ExitError || first.ErrorKind != record.ErrorRequestTooLarge || !strings.Contains(first.Error, "the fake refuses this request") || first.Passed {
		t.Errorf("failed call: exit %s, error %q, passed %v", first.ExitReason, first.Error, first.Passed)
	}
	if second.ExitReason != record.ExitDone || !second.Passed {
		t.Errorf("the episode after the failure: exit %s, passed %v, error %q", second.ExitReason, second.Passed, second.Error)
	}
}

// TestEndToEndPostureOn gives the agent the coding guidance with
// --posture on and records the posture on its episode.
func TestEndToEndPostureOn(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(testsupport.NewSolver(t).Reply)))
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tracks", "agent", "--tasks", "leap_year", "--posture", "on", "--out", dir); err != nil {
		t.Fatalf("bench run --posture on: %v\n%s", err, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Episodes) != 1 || data.Episodes[0].Posture != "coding" || data.Run.Posture != "on" {
		t.Fatalf("posture recorded: run %q, episodes %+v", data.Run.Posture, data.Episodes)
	}
	first := srv.Requests()[0].Messages[0]
	// leap_year is a lone copy: no project root, no snapshot, and no words promising one.
	if first.Role != model.RoleSystem || !strings.Contains(first.Content, strings.TrimSpace(detect.GuidanceFor(false))) {
		t.Fatalf("the agent's system prompt lacks the coding guidance:\n%s", first.Content)
	}
	if strings.Contains(first.Content, "snapshot below") || strings.Contains(first.Content, "# Workspace") {
		t.Errorf("the guidance promises a snapshot; snapshot given: %v", strings.Contains(first.Content, "# Workspace"))
	}
}
