package cause_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/cause"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// These tests derive causes from real trajectories: each runs one episode
// through runner.Run with the registry's real tracks (workflow,
// workflow-retry, agent), the real Ollama client against the modeltest
// protocol fake serving a scripted reply, real test runs and the real
// sealed grading, into a real run folder (record.Writer), and reads the
// trajectory back with cause.Read.

// episode runs task on trackName with the scripted replies, after tune
// (which may be nil) has adjusted the run's configuration, and returns the
// episode read back from its run folder and the Input for Derive.
func episode(t *testing.T, task tasks.Task, trackName string, tune func(*runner.Config), script ...modeltest.Reply) (record.Episode, cause.Input) {
	t.Helper()
	data := run(t, task, []string{trackName}, tune, script...)
	return read(t, data, 0, task)
}

// read reads the i-th episode of a run back, for Derive.
func read(t *testing.T, data record.Data, i int, task tasks.Task) (record.Episode, cause.Input) {
	t.Helper()
	in, warnings, err := cause.Read(data, data.Episodes[i], taskOf(t, task))
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reading the trajectory: %v %v", err, warnings)
	}
	return data.Episodes[i], in
}

// run runs one episode of task per track, in order, on one fake server
// that serves the scripted replies in order, into a run folder, and reads
// the folder back.
func run(t testing.TB, task tasks.Task, tracks []string, tune func(*runner.Config), script ...modeltest.Reply) record.Data {
	t.Helper()
	return runIn(t, t.TempDir(), task, tracks, tune, script...)
}

// runIn is run into the run folder dir.
func runIn(t testing.TB, dir string, task tasks.Task, tracks []string, tune func(*runner.Config), script ...modeltest.Reply) record.Data {
	t.Helper()
	srv := modeltest.NewOllama(t, script...)
	cfg := runner.ConfigFrom(record.Run{ID: "cause", RunSettings: record.DefaultSettings()})
	cfg.Model, cfg.Host = srv.Client(t), srv.URL
	if tune != nil {
		tune(&cfg)
	}
	w, err := record.Create(dir, record.Run{ID: "cause", Model: modeltest.DefaultModel, Tasks: []record.TaskRef{{Name: task.Name, Checksum: "sha256:test"}},
		Tracks: tracks, Seeds: []int{1}, Started: time.Now().UTC()}) // a run.json that passes the check every reader makes
	if err != nil {
		t.Fatal(err)
	}
	jobs := runner.PlanVariants([]tasks.Task{task}, tracks, []string{""}, []string{""}, []int{1})
	if err := runner.RunPool(context.Background(), cfg, []runner.Server{{URL: srv.URL, Slots: 1}}, runner.WriterSink{W: w}, jobs, runner.PoolOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := record.Read(dir)
	if err != nil || len(data.Episodes) != len(tracks) || len(data.Warnings) > 0 {
		t.Fatalf("reading the run back: %d episodes, error %v, warnings %v", len(data.Episodes), err, data.Warnings)
	}
	for i, ep := range data.Episodes {
		if ep.Track != tracks[i] {
			t.Fatalf("episode %d is of track %s, want %s", i, ep.Track, tracks[i])
		}
	}
	return data
}

// taskOf is cause.TaskOf, failing the test on an error.
func taskOf(t testing.TB, task tasks.Task) cause.Task {
	t.Helper()
	ct, err := cause.TaskOf(task)
	if err != nil {
		t.Fatal(err)
	}
	return ct
}

// fileReply is a workflow reply in the asked shape: FILE: and one block.
func fileReply(file, content string) modeltest.Reply {
	return modeltest.Text("FILE: " + file + "\n```python\n" + content + "```\n")
}

// overlay returns a file of a task's folder (repo/, partial/, solution/).
func overlay(t testing.TB, task tasks.Task, name string) string {
	t.Helper()
	b, err := fs.ReadFile(task.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// names lists the causes' names in order.
func names(cs []cause.Cause) []cause.Name {
	var out []cause.Name
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// want checks the causes' names, in order, and that each evidence is one line.
func want(t *testing.T, ep record.Episode, got []cause.Cause, names_ ...cause.Name) {
	t.Helper()
	if ep.Passed {
		t.Fatalf("the episode passed (%d/%d); the scenario is meant to fail", ep.TestsPassed, ep.TestsTotal)
	}
	if !slices.Equal(names(got), names_) {
		t.Fatalf("causes %v, want %v:\n%s", names(got), names_, show(got))
	}
	t.Logf("causes:\n%s", show(got))
	for _, c := range got {
		if c.Evidence == "" || strings.Contains(c.Evidence, "\n") {
			t.Errorf("%s: evidence %q is not one line", c.Name, c.Evidence)
		}
	}
}

func show(cs []cause.Cause) string {
	var b strings.Builder
	for _, c := range cs {
		j, _ := json.Marshal(c)
		b.WriteString("  " + string(j) + "\n")
	}
	return b.String()
}

// contains checks that the cause's evidence holds every part.
func contains(t *testing.T, c cause.Cause, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(c.Evidence, p) {
			t.Errorf("%s evidence %q lacks %q", c.Name, c.Evidence, p)
		}
	}
}

// TestPartialFixIsMaskedFailure: parse_date's partial/ as the workflow's
// reply fixes the line the traceback names; the month is still off by
// one, which the first run did not show. The episode is the workflow's of
// the shared parseDateRun.
func TestPartialFixIsMaskedFailure(t *testing.T) {
	task, data := parseDateRun(t)
	ep, in := read(t, data, 0, task)
	got := cause.Derive(in)
	want(t, ep, got, cause.MaskedFailure)
	c := got[0]
	if w := []string{"test_any_case_and_spaces", "test_first_month", "test_month_name", "test_short_month_name"}; !slices.Equal(c.Tests, w) {
		t.Errorf("tests %v, want %v", c.Tests, w)
	}
	contains(t, c, "did not show", "datetime.date(2024, 1, 29) != datetime.date(2024, 2, 29)", "before: ValueError: invalid literal for int()")
	if q := record.CausesFor(1); !slices.Equal(q, []cause.Name{cause.MaskedFailure}) {
		t.Errorf("question 1's causes %v, want [masked_failure]", q)
	}
}

// TestSnippetThroughFallbackIsLostContent: slugify's bare function, sent
// without a FILE: line, is written over the whole file by the naive
// fallback, which loses `import re` (and unique_slug).
func TestSnippetThroughFallbackIsLostContent(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "slugify")
	snippet := "def slugify(text, sep=\"-\"):\n    \"\"\"Turn a title into a lower-case URL slug.\"\"\"\n    words = re.findall(r\"[a-z0-9]+\", text.lower())\n    return sep.join(words)\n"
	ep, in := episode(t, task, "workflow", nil, modeltest.Text("Lower-case the text first:\n\n```python\n"+snippet+"```\n"))
	got := cause.Derive(in)
	want(t, ep, got, cause.LostContent)
	c := got[0]
	if !c.Fallback || c.File != "slugify.py" || !slices.Contains(c.Lost, "import re") || !slices.Contains(c.Lost, "def unique_slug(text, taken):") {
		t.Errorf("lost_content %+v: want the fallback's write of slugify.py losing import re and unique_slug", c)
	}
	contains(t, c, "naive fallback", "`import re`", "NameError: name 're' is not defined", fmt.Sprintf("of %d bytes in slugify.py", len(overlay(t, task, "repo/slugify.py"))))
	if len(c.Tests) != ep.TestsTotal {
		t.Errorf("lost_content explains %v; every one of the %d tests fails by it", c.Tests, ep.TestsTotal)
	}
}

// TestUnchangedFileIsNoChange: the workflow's reply is the original file.
func TestUnchangedFileIsNoChange(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "leap_year")
	ep, in := episode(t, task, "workflow", nil, fileReply("leap.py", overlay(t, task, "repo/leap.py")))
	got := cause.Derive(in)
	want(t, ep, got, cause.NoChange)
	contains(t, got[0], "leap.py as the task had it")
}

// TestFixThatBreaksAnotherTest: file_sizes' partial/ (KILO = 1024) fixes
// test_human.py and breaks test_quota.py.
func TestFixThatBreaksAnotherTest(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.SuiteTask(t, "file_sizes")
	ep, in := episode(t, task, "workflow", nil, fileReply("sizes.py", overlay(t, task, "partial/sizes.py")))
	got := cause.Derive(in)
	want(t, ep, got, cause.BrokeTests)
	if w := []string{"test_large_plan", "test_small_plan"}; !slices.Equal(got[0].Tests, w) {
		t.Errorf("tests %v, want %v", got[0].Tests, w)
	}
	contains(t, got[0], "passed before the write", "AssertionError: 524288000 != 500000000")
	if q := record.CausesFor(2); !slices.Contains(q, cause.BrokeTests) {
		t.Errorf("question 2's causes %v lack broke_tests", q)
	}
}

// TestWrongFix: word_freq's ties broken by word length instead of
// alphabetically: the same two tests fail at the same assertion, one with
// another message, and nothing new fails.
func TestWrongFix(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "word_freq")
	fix := strings.Replace(overlay(t, task, "repo/word_freq.py"), "(pair[1], pair[0])", "(pair[1], len(pair[0]))", 1)
	ep, in := episode(t, task, "workflow", nil, fileReply("word_freq.py", fix))
	got := cause.Derive(in)
	want(t, ep, got, cause.WrongFix)
	if w := []string{"test_first_n", "test_ties_in_alphabetical_order"}; !slices.Equal(got[0].Tests, w) {
		t.Errorf("tests %v, want %v", got[0].Tests, w)
	}
}

// TestCutReply: the server cuts the workflow's reply inside its code
// block; the workflow writes it as it was and the module no longer parses.
func TestCutReply(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "slugify")
	cut := "FILE: slugify.py\n```python\nimport re\n\n\ndef slugify(text, sep=\"-\"):\n    words = re.findall(r\"[a-z0-9]+\", text.lo"
	ep, in := episode(t, task, "workflow", nil, modeltest.Text(cut).WithDoneReason("length"))
	got := cause.Derive(in)
	want(t, ep, got, cause.CutReply)
	if c := got[0]; c.File != "slugify.py" || len(c.Tests) != ep.TestsTotal {
		t.Errorf("cut_reply %+v: want slugify.py, explaining all %d tests", c, ep.TestsTotal)
	}
	contains(t, got[0], "cut off at the reply cap", "SyntaxError")
}

// TestMalformedReply: a reply of prose, without a code block, is written
// whole by the naive fallback; and workflow-retry rejects two replies
// without a FILE: line and writes nothing.
func TestMalformedReply(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "slugify")
	t.Run("fallback", func(t *testing.T) {
		t.Parallel()
		ep, in := episode(t, task, "workflow", nil, modeltest.Text("Lower-case the text before the regular expression runs."))
		got := cause.Derive(in)
		want(t, ep, got, cause.MalformedReply)
		if !got[0].Fallback {
			t.Errorf("malformed_reply %+v does not say the fallback wrote it", got[0])
		}
		contains(t, got[0], "no code block", "whole reply", "SyntaxError")
	})
	t.Run("rejected", func(t *testing.T) {
		t.Parallel()
		ep, in := episode(t, task, "workflow-retry", nil, modeltest.Always(modeltest.Text("Lower-case the text first.")))
		got := cause.Derive(in)
		want(t, ep, got, cause.MalformedReply, cause.NoChange, cause.Budget)
		contains(t, got[0], "2 replies were rejected", `no "FILE: <path>" line`)
		contains(t, got[2], "2 tries")
	})
}

// TestBudgets: the agent reads and never writes until its turns run out;
// then until its tokens run out.
func TestBudgets(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "leap_year")
	read := modeltest.Calls(modeltest.Call("read_file", `{"path":"leap.py"}`))
	t.Run("turns", func(t *testing.T) {
		t.Parallel()
		ep, in := episode(t, task, "agent", func(c *runner.Config) { c.MaxTurns = 2 }, read, read, modeltest.Text("I ran out of turns."))
		got := cause.Derive(in)
		want(t, ep, got, cause.NoChange, cause.Budget)
		contains(t, got[0], "never called write_file or edit_file")
		contains(t, got[1], "max_turns", "2 turns")
	})
	t.Run("tokens", func(t *testing.T) {
		t.Parallel()
		ep, in := episode(t, task, "agent", func(c *runner.Config) { c.TokenLimit = 1000 }, read.WithUsage(900, 200))
		got := cause.Derive(in)
		want(t, ep, got, cause.NoChange, cause.Budget)
		contains(t, got[1], "token_budget", "1100 tokens")
	})
}

// TestTimeout: the model never answers, and the episode reaches its limit.
func TestTimeout(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "leap_year")
	ep, in := episode(t, task, "workflow", func(c *runner.Config) { c.EpisodeTimeoutMS = (500 * time.Millisecond).Milliseconds() }, modeltest.Hang())
	got := cause.Derive(in)
	want(t, ep, got, cause.Timeout)
	contains(t, got[0], "--episode-timeout")
}

// TestToolErrors: three edits whose old text is not in the file, then the
// agent gives up.
func TestToolErrors(t *testing.T) {
	fixture.ParallelPython(t)
	task := fixture.CourseTask(t, "leap_year")
	bad := modeltest.Calls(modeltest.Call("edit_file", `{"path":"leap.py","old":"year % 400","new":"year % 4"}`))
	ep, in := episode(t, task, "agent", nil, bad, bad, bad, modeltest.Text("I could not make the edit."))
	got := cause.Derive(in)
	want(t, ep, got, cause.ToolErrors, cause.NoChange)
	contains(t, got[0], "the last 3 tool calls failed", "edit_file", "old text found 0 times")
	contains(t, got[1], "3 write_file and edit_file calls failed")
}

// TestNeedsOtherFile: receipt_total's fix belongs in money.py, which the
// workflow does not send. Its partial/ (rounding in receipt.py) leaves
// test_money failing; the agent that writes the solution passes, having
// written money.py, and serves as a witness. Both episodes are the shared
// receiptRun's.
func TestNeedsOtherFile(t *testing.T) {
	task, data := receiptRun(t)
	ep, in := read(t, data, 0, task)
	got := cause.Derive(in)
	want(t, ep, got, cause.NeedsOtherFile)
	if c := got[0]; c.File != "money.py" || !slices.Equal(c.Tests, []string{"test_cents_that_floats_miss"}) {
		t.Errorf("needs_other_file %+v: want money.py for test_cents_that_floats_miss", c)
	}
	contains(t, got[0], "test_money.py", "tests money.py, not receipt.py")

	agent, agentIn := read(t, data, 1, task)
	if !agent.Passed || cause.Derive(agentIn) != nil {
		t.Fatalf("the agent writing the solution: passed %v, causes %v; want a pass without causes", agent.Passed, cause.Derive(agentIn))
	}
	in.Witnesses = []cause.Witness{{Episode: agent.Key(), Track: agent.Track, Wrote: cause.Wrote(agentIn.Events)}}
	got = cause.Derive(in)
	want(t, ep, got, cause.NeedsOtherFile)
	contains(t, got[0], "the passing agent episode receipt_total/agent/", "wrote money.py")
	if q := record.CausesFor(3); !slices.Equal(q, []cause.Name{cause.NeedsOtherFile}) {
		t.Errorf("question 3's causes %v, want [needs_other_file]", q)
	}
}

// TestGoTasks: go_cents' partial/ (cart.go) leaves the build failing in
// invoice.go, which the workflow does not send; go_stack's partial/ stops
// the panic, and TestPeek, which the panic kept from running, fails. The
// second builds and links test binaries, the costliest grading there is,
// and runs only in full mode: in short mode, TestReadGo reads a panic that
// ended the test binary (the test after it not run) from go test's output,
// and TestPartialFixIsMaskedFailure derives masked_failure from a real run.
func TestGoTasks(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	t.Parallel()
	t.Run("needs_other_file", func(t *testing.T) {
		t.Parallel()
		task := fixture.SuiteTask(t, "go_cents")
		ep, in := episode(t, task, "workflow", nil, fileReply("cart.go", overlay(t, task, "partial/cart.go")))
		got := cause.Derive(in)
		want(t, ep, got, cause.NeedsOtherFile)
		if got[0].File != "invoice.go" {
			t.Errorf("needs_other_file names %s, want invoice.go", got[0].File)
		}
		contains(t, got[0], "does not build", "invoice.go:7:10: invalid operation")
	})
	t.Run("masked_failure", func(t *testing.T) {
		if testing.Short() {
			t.Skip("links test binaries; TestReadGo and TestPartialFixIsMaskedFailure cover it in short mode")
		}
		t.Parallel()
		task := fixture.SuiteTask(t, "go_stack")
		ep, in := episode(t, task, "workflow", nil, fileReply("stack.go", overlay(t, task, "partial/stack.go")))
		got := cause.Derive(in)
		want(t, ep, got, cause.MaskedFailure)
		if !slices.Equal(got[0].Tests, []string{"TestPeek"}) {
			t.Errorf("tests %v, want [TestPeek]", got[0].Tests)
		}
		contains(t, got[0], "Peek() = 1, true; want 3, true", "ended the test binary")
	})
}
