// Package examples holds the recorded runs that ship with bench and the
// tests that make and check them (see README.md).
package examples

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/internal/testsupport/replayrun"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/replay"
	"bench/runner"
	"bench/tasks"
)

// courseRecording is the committed recording of the four course tasks.
const courseRecording = "course-replay"

// fakeModel is the model name the example is recorded under, so that
// every view of it says it is no real model.
const fakeModel = "protocol-fake-scripted"

// recordEnv is the variable that makes TestRecordCourseExample record the
// example again (it is skipped otherwise).
const recordEnv = "BENCH_RECORD_EXAMPLE"

// courseTasks are the four course tasks, as the suite (bench's default
// tasks) holds them.
func courseTasks(t *testing.T) []tasks.Task {
	t.Helper()
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	sel, err := tasks.Select(all, []string{"parse_date", "slugify", "word_freq", "leap_year"})
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// scriptedCourse is the fake model the example is recorded against: it
// plays the lesson's story. The workflow gets, for parse_date, the fix of
// the bug the traceback shows only (the task's partial/ fix), for slugify
// the function alone without a FILE marker (so the module's import is
// lost), and the solution for the others; the agent lists the files,
// writes the solution, runs the tests and stops. Every reply reports its
// own token counts.
type scriptedCourse struct {
	workflow map[string]string // source file → the workflow's reply
	solution map[string]string // source file → the solution
}

// newScriptedCourse reads the replies from the tasks' folders.
func newScriptedCourse(t *testing.T, ts []tasks.Task) *scriptedCourse {
	t.Helper()
	m := &scriptedCourse{workflow: map[string]string{}, solution: map[string]string{}}
	read := func(task tasks.Task, sub string) string {
		b, err := fs.ReadFile(task.FS, path.Join(sub, task.Source))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, task := range ts {
		sol := read(task, "solution")
		m.solution[task.Source] = sol
		reply := sol
		switch task.Name {
		case "parse_date":
			reply = read(task, "partial")
		case "slugify":
			start := strings.Index(sol, "def slugify(")
			if start < 0 {
				t.Fatal("no slugify function in the solution")
			}
			fn, _, _ := strings.Cut(sol[start:], "\n\n\n")
			m.workflow[task.Source] = "The fixed function:\n\n```python\n" + fn + "\n```\n"
			continue
		}
		m.workflow[task.Source] = fmt.Sprintf("FILE: %s\n```python\n%s```\n", task.Source, reply)
	}
	return m
}

// source is the task's source file that the request's first user message names.
func (m *scriptedCourse) source(r modeltest.Request) string {
	return testsupport.SourceOf(r, m.solution)
}

// reply answers one request of the workflow or the agent.
func (m *scriptedCourse) reply(r modeltest.Request) modeltest.Reply {
	src := m.source(r)
	if len(r.Tools) == 0 {
		return modeltest.Text(m.workflow[src]).WithUsage(420+len(src), 180)
	}
	tools := 0
	for _, msg := range r.Messages {
		if msg.Role == model.RoleTool {
			tools++
		}
	}
	switch tools {
	case 0:
		return modeltest.Calls(modeltest.Call("list_files", `{"path":"."}`)).WithUsage(610, 18)
	case 1:
		args, _ := json.Marshal(map[string]string{"path": src, "content": m.solution[src]})
		return modeltest.Calls(modeltest.Call("write_file", string(args))).WithUsage(760, 240)
	case 2:
		return modeltest.Calls(modeltest.Call("run_tests", `{}`)).WithUsage(1050, 12)
	}
	return modeltest.Text("Every test passes now.").WithUsage(1320, 9)
}

// TestRecordCourseExample records the example again: the four course
// tasks on the workflow and agent tracks, seed 1, against the protocol
// fake of Ollama (modeltest) scripted by scriptedCourse, through the real
// runner, and writes run.json, episodes.jsonl and the trajectories over
// course-replay/. It runs only with BENCH_RECORD_EXAMPLE=1:
//
//	BENCH_RECORD_EXAMPLE=1 go test ./examples -run TestRecordCourseExample
func TestRecordCourseExample(t *testing.T) {
	if os.Getenv(recordEnv) != "1" {
		t.Skipf("set %s=1 to record %s again", recordEnv, courseRecording)
	}
	fixture.ParallelPython(t)
	ts := courseTasks(t)
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(newScriptedCourse(t, ts).reply)))
	srv.SetModels(modeltest.Model{Name: fakeModel, Digest: modeltest.DefaultDigest, Capabilities: []string{"completion", "tools"}})
	spec := runner.Spec{Model: srv.Config(), RunSettings: record.DefaultSettings()}
	spec.Model.Model = fakeModel
	spec.Tasks, spec.Tracks, spec.Seeds = ts, []string{"workflow", "agent"}, []int{1}
	spec.Dir = filepath.Join(t.TempDir(), courseRecording)
	spec.BenchVersion = "examples/TestRecordCourseExample"
	s, err := runner.NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	servers, err := s.ConnectInspected(runner.Inspect(ctx, s.ServerConfigs()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Execute(ctx, servers, runner.ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if err := os.RemoveAll(courseRecording); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(courseRecording, record.TrajectoriesDir), os.DirFS(filepath.Join(spec.Dir, record.TrajectoriesDir))); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{record.RunFile, record.EpisodesFile} {
		b, err := os.ReadFile(filepath.Join(spec.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(courseRecording, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCourseExampleReplaysIdentically replays the committed recording
// with the current tools, tests, grading and normalisation, as bench run
// --replay does (runner.NewReplay, with no model server), and expects
// every episode as recorded: passed, the tests, the exit reason and every
// token count, and each line saying it replayed identically. A change to
// bench that changes an outcome fails here; if the change is meant, record
// the example again (TestRecordCourseExample) and say why in the commit.
func TestCourseExampleReplaysIdentically(t *testing.T) {
	fixture.ParallelPython(t)
	src, err := replay.Open(courseRecording, courseTasks(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range src.Changed {
		t.Logf("note: %s", c)
	}
	if len(src.Episodes) != 8 || len(src.Skipped) != 0 {
		t.Fatalf("the example holds %d episodes to replay and %d skipped, want the 8 of 4 tasks × 2 tracks", len(src.Episodes), len(src.Skipped))
	}
	passes := 0
	for _, e := range src.Episodes {
		if e.Recorded.Passed {
			passes++
		}
	}
	if passes != 6 {
		t.Errorf("the example has %d passes, want 6 (the workflow fails parse_date and slugify, the agent passes all four)", passes)
	}
	for _, d := range replayDifferences(t, src) {
		t.Error(d)
	}
}

// TestCourseExampleCheckCanFail is the control of the check above: with
// leap_year's tests given a seventh test after the recording, the same
// comparison finds the difference in its agent episode. One episode is
// enough to show the check can fail, and the agent's is the cheaper to
// replay (one test run before grading, the workflow's two).
func TestCourseExampleCheckCanFail(t *testing.T) {
	fixture.ParallelPython(t)
	root := t.TempDir()
	var edited []tasks.Task
	for _, task := range courseTasks(t) {
		if err := task.CopyDir(".", filepath.Join(root, task.Name)); err != nil {
			t.Fatal(err)
		}
	}
	test := filepath.Join(root, "leap_year", "repo", "test_leap.py")
	b, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	old := "    def test_days_in_year(self):"
	if err := os.WriteFile(test, []byte(strings.Replace(string(b), old, "    def test_year_zero(self):\n        self.assertTrue(is_leap(0))\n\n"+old, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if edited, err = tasks.FromDir(root); err != nil {
		t.Fatal(err)
	}
	src, err := replay.Open(courseRecording, edited)
	if err != nil {
		t.Fatal(err)
	}
	src.Episodes = slices.DeleteFunc(src.Episodes, func(e replay.Episode) bool { return e.Task.Name != "leap_year" || e.Recorded.Track != "agent" }) // the others are checked above
	if len(src.Episodes) != 1 {
		t.Fatalf("the example holds %d agent episodes of leap_year, want 1", len(src.Episodes))
	}
	diffs := replayDifferences(t, src)
	if len(diffs) != 1 || !strings.HasPrefix(diffs[0], "leap_year/agent/") {
		t.Fatalf("an edited task was not seen: %q", diffs)
	}
}

// replayDifferences replays src into a new folder (replayrun, two at
// once) and says, one line each, where an episode came out otherwise than
// recorded or its line does not say it replayed identically.
func replayDifferences(t *testing.T, src *replay.Source) []string {
	t.Helper()
	byKey := map[string]record.Episode{}
	for _, ep := range replayrun.Run(t, src).Episodes {
		byKey[ep.Key()] = ep
	}
	var diffs []string
	for _, e := range src.Episodes {
		want := e.Recorded
		ep, ok := byKey[want.Key()]
		switch {
		case !ok:
			diffs = append(diffs, want.Key()+" was not replayed")
		case outcome(want) != outcome(ep):
			diffs = append(diffs, fmt.Sprintf("%s replayed differently:\nrecorded %s\nreplayed %s", want.Key(), outcome(want), outcome(ep)))
		case !ep.Replay.Identical:
			diffs = append(diffs, fmt.Sprintf("%s did not replay identically; first difference: %s", want.Key(), firstDifference(ep.Replay)))
		}
	}
	return diffs
}

// outcome is what a replay must reproduce of an episode, as one line.
func outcome(ep record.Episode) string {
	b, _ := json.Marshal(map[string]any{
		"passed": ep.Passed, "tests_passed": ep.TestsPassed, "tests_total": ep.TestsTotal, "failed_tests": ep.FailedTests,
		"exit_reason": ep.ExitReason, "error_kind": ep.ErrorKind, "turns": ep.Turns, "model_calls": ep.ModelCalls, "tool_calls": ep.ToolCalls,
		"prompt_tokens": ep.PromptTokens, "completion_tokens": ep.CompletionTokens,
		"est_prompt_tokens": ep.EstPromptTokens, "est_completion_tokens": ep.EstCompletionTokens, "tests_tampered": ep.TestsTampered,
	})
	return string(b)
}

// firstDifference is the first step a replay differed at, in words.
func firstDifference(r *record.Replay) string {
	if r == nil || r.First == nil {
		return "none"
	}
	return r.First.String()
}
