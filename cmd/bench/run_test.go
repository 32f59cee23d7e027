package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/runner"
	"bench/track"
	"bench/track/tracktest"
)

func TestRunRejectsBadInput(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "run")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--tracks", "workflow,agnet"}, `unknown track "agnet" in --tracks (did you mean agent?): valid tracks are workflow, workflow-retry, hybrid, agent, oracle`},
		{[]string{"--seeds", "1,two"}, `bad --seeds "1,two": "two" is not a whole number`},
		{[]string{"--seeds", " , "}, "--seeds is empty"},
		{[]string{"--tasks", "parse_date,nosuch"}, "nosuch"},
		{[]string{"--posture", "maybe"}, `unknown --posture "maybe": use off, auto or on`},
		{[]string{"--backend", "vllm"}, `unknown --backend "vllm": use ollama or openai`},
		{[]string{"--parallel", "0"}, "--parallel must be at least 1, got 0"},
		{[]string{"--host", "ftp://example"}, "bad server address"},
		{[]string{"--format", "pdf"}, `unknown --format "pdf"`},
		{[]string{"--resume", filepath.Join(t.TempDir(), "missing")}, "cannot resume"},
	}
	for _, c := range cases {
		args := append([]string{"run", "--out", out}, c.args...)
		if c.args[0] == "--resume" {
			args = append([]string{"run"}, c.args...)
		}
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run %q: error %v, want one containing %q", c.args, err, c.want)
		}
		if strings.Count(strings.TrimSpace(errString(err)), "\n") > 0 {
			t.Errorf("run %q: error is more than one line: %q", c.args, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a rejected run created %s", out)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRunOracleNeedsNoServer: an oracle run of one task and a twin seed
// asks no server, records no model, keeps progress on stderr and the
// report alone on stdout, and its resume runs nothing more. (That a run
// takes the course tasks by default is TestRunTasksDefaultToTheCourse's.)
func TestRunOracleNeedsNoServer(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "oracle")
	// Nothing listens on port 1: the oracle must not need the server.
	stdout, stderr, err := runCLI(t, "run", "--host", "http://127.0.0.1:1", "--tracks", "oracle", "--tasks", "parse_date", "--seeds", "1,1", "--out", dir)
	if err != nil {
		t.Fatalf("oracle run failed: %v\n%s\n%s", err, stdout, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Run.Tasks) != 1 || len(data.Episodes) != 2 {
		t.Fatalf("%d tasks, %d episodes; want 1 and 2", len(data.Run.Tasks), len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if !ep.Passed || ep.ExitReason != record.ExitDone {
			t.Errorf("oracle %s: passed %v, exit %s, error %q", ep.Key(), ep.Passed, ep.ExitReason, ep.Error)
		}
	}
	r := data.Run
	if r.Model != "" || r.Backend != "" || r.Host != "" {
		t.Errorf("an oracle-only run recorded a model it never asked: %q %q %q", r.Backend, r.Host, r.Model)
	}
	if !strings.Contains(stdout, "no model, 2 episodes") {
		t.Errorf("the report does not say the run used no model:\n%s", stdout)
	}
	if r.Temperature != record.DefaultTemperature || r.NumCtx != 8192 || r.MaxTokens != 4096 || r.MaxTurns != 25 || r.Tries != 2 || r.Posture != "off" {
		t.Fatalf("run.json defaults not recorded: %+v", r)
	}
	if r.BenchVersion == "" || r.Started.IsZero() || r.Tasks[0].Checksum == "" {
		t.Fatalf("run.json lacks version, start or checksums: %+v", r)
	}
	// Progress is on stderr, so that `bench run > report.txt` holds only the report.
	if !strings.Contains(stderr, "[2/2]") || !strings.Contains(stderr, "bench run: 2 episodes (1 task × 1 track × 2 seeds)") {
		t.Fatalf("no header and per-episode progress lines on stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, "[1/2]") || strings.Contains(stdout, "bench run:") || !strings.HasPrefix(stdout, "run oracle:") {
		t.Fatalf("stdout holds more than the report:\n%s", stdout)
	}
	for _, ep := range []string{"parse_date/oracle/seed-1", "parse_date/oracle/seed-1-r1"} {
		if _, err := os.Stat(filepath.Join(dir, "trajectories", ep+".jsonl")); err != nil {
			t.Errorf("trajectory %s: %v", ep, err)
		}
	}
	// Resuming a finished run does nothing more.
	_, stderr, err = runCLI(t, "run", "--resume", dir)
	if err != nil || !strings.Contains(stderr, "2 already finished") {
		t.Fatalf("resume of a finished run: %v\n%s", err, stderr)
	}
	if data, _ := record.Read(dir); len(data.Episodes) != 2 {
		t.Fatalf("resume added episodes: %d", len(data.Episodes))
	}
	_, _, err = runCLI(t, "run", "--resume", dir, "--model", "other:1b")
	if err == nil || !strings.Contains(err.Error(), "drop --model") {
		t.Fatalf("resume with a new --model: %v, want a refusal", err)
	}
}

func TestRunPreflightFailureCreatesNothing(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "never")
	_, stderr, err := runCLI(t, "run", "--host", "http://127.0.0.1:1", "--tasks", "leap_year", "--out", dir)
	if err == nil {
		t.Fatal("a run against an unreachable server succeeded")
	}
	for _, want := range []string{"ollama serve", "127.0.0.1:1", "Nothing was created"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the help does not mention %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("a failed preflight created %s", dir)
	}
}

// TestRunWorkflowNeedsNoToolSupport: a model without tool calling can run
// the workflow tracks, which offer no tools; the agent track is refused
// before anything is created.
func TestRunWorkflowNeedsNoToolSupport(t *testing.T) {
	t.Parallel()
	leap := fixture.CourseTask(t, "leap_year")
	solution := tracktest.ReadOverlay(t, &track.Env{Task: leap}, "solution", leap.Source)
	srv := modeltest.NewOllama(t, modeltest.Text("FILE: "+leap.Source+"\n```python\n"+solution+"```\n"))
	srv.SetModels(modeltest.Model{Name: "gemma:2b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	base := []string{"run", "--host", srv.URL, "--model", "gemma:2b", "--tasks", "leap_year"}

	dir := filepath.Join(t.TempDir(), "workflow")
	stdout, stderr, err := runCLI(t, append(base, "--tracks", "workflow", "--out", dir)...)
	if err != nil {
		t.Fatalf("a workflow run on a model without tools was refused: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "workflow  1/1") {
		t.Errorf("the workflow did not pass leap_year:\n%s", stdout)
	}

	dir = filepath.Join(t.TempDir(), "agent")
	_, stderr, err = runCLI(t, append(base, "--tracks", "agent", "--out", dir)...)
	if err == nil || !strings.Contains(stderr, "does not support tool calling") {
		t.Fatalf("an agent run on a model without tools: err %v\n%s", err, stderr)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused run created %s", dir)
	}
}

// TestRunStopsWhenTheServerGoesAway kills the model server mid-run: the run
// stops early, exits non-zero and says how to resume; resumed against a
// restarted server it finishes, with every episode on disk once.
func TestRunStopsWhenTheServerGoesAway(t *testing.T) {
	fixture.FullOnly(t, "runner's TestResumeAfterTheServerWentAway and TestRunBreakerCountsOnlyConsecutiveLosses")
	t.Parallel()
	solver := testsupport.NewSolver(t)
	var first *modeltest.Server
	first = modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		if r.N == 1 {
			go first.Close() // killed while it answers the second call
			return modeltest.Hang()
		}
		return solver.Reply(r)
	})))
	dir := filepath.Join(t.TempDir(), "run")
	// --retry-window 1s: each episode waits a second, not a minute, for the server that went away.
	_, stderr, err := runCLI(t, "run", "--host", first.URL, "--retry-window", "1s", "--tracks", "workflow", "--tasks", "leap_year", "--seeds", "1,2,3,4,5,6", "--out", dir)
	if err == nil {
		t.Fatalf("a run whose server went away exited 0:\n%s", stderr)
	}
	if want := "bench run --resume " + dir; !strings.Contains(stderr, want) || !strings.Contains(stderr, "stopped early") {
		t.Fatalf("no %q and no word of the early stop in:\n%s", want, stderr)
	}
	data, _ := record.Read(dir)
	if len(data.Episodes) != 1+runner.BreakerThreshold {
		t.Fatalf("%d episodes on disk, want 1 passed and %d lost", len(data.Episodes), runner.BreakerThreshold)
	}
	for _, ep := range data.Episodes[1:] {
		if !ep.Lost() {
			t.Errorf("%s: exit %s, kind %q; want lost to the server", ep.Key(), ep.ExitReason, ep.ErrorKind)
		}
	}

	second := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(solver.Reply)))
	if _, stderr, err := runCLI(t, "run", "--resume", dir, "--host", second.URL); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	data, err = record.Read(dir)
	if err != nil || len(data.Warnings) != 0 || len(data.Episodes) != 6 {
		t.Fatalf("after resume: %v, warnings %q, %d episodes; want 6 and no warning", err, data.Warnings, len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if !ep.Passed || ep.ExitReason != record.ExitDone {
			t.Errorf("%s after resume: exit %s, passed %v, %q", ep.Key(), ep.ExitReason, ep.Passed, ep.Error)
		}
	}
}

func TestRunRejectsBadNumbersAndLeavesNothing(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "never")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--temperature", "nan"}, "--temperature must be a finite number"},
		{[]string{"--temperature", "inf"}, "--temperature must be a finite number"},
		{[]string{"--top-p", "NaN"}, "--top-p must be a finite number"},
		{[]string{"--parallel", "65"}, "--parallel must be at most 64, got 65"},
		{[]string{"--episode-timeout", "0s"}, "--episode-timeout must be positive"},
		{[]string{"--token-limit", "-1"}, "--token-limit must be 0"},
	} {
		_, _, err := runCLI(t, append([]string{"run", "--tracks", "oracle", "--out", out}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run %q: error %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a rejected run left its folder behind")
	}
}

func TestRunResumeRefusesBadOptions(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "r")
	if _, stderr, err := runCLI(t, "run", "--tracks", "oracle", "--tasks", "leap_year", "--out", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--timeout", "-5s"}, "--timeout must be positive"},
		{[]string{"--retry-window", "-5s"}, "--retry-window must not be negative"},
		{[]string{"--parallel", "100"}, "--parallel must be at most 64"},
		{[]string{"--episode-timeout", "1m"}, "drop --episode-timeout"},
		{[]string{"--token-limit", "5"}, "drop --token-limit"},
	} {
		_, _, err := runCLI(t, append([]string{"run", "--resume", dir}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("resume %q: error %v, want %q", c.args, err, c.want)
		}
	}
	// A torn last line is cut off on resume, and bench says so.
	eps := filepath.Join(dir, "episodes.jsonl")
	f, _ := os.OpenFile(eps, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"format":1,"task":"leap`)
	f.Close()
	_, stderr, err := runCLI(t, "run", "--resume", dir)
	if err != nil || !strings.Contains(stderr, "warning:") || !strings.Contains(stderr, "torn last line") {
		t.Fatalf("resume over a torn line: %v; stderr lacks the warning:\n%s", err, stderr)
	}
}
