package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/runner"
	"bench/tasks"
	"bench/track/tracktest"
)

// TestArchetypes drives every task of tasks.Suite() through both tracks
// with a scripted model, so that each task's design (its archetype) is
// shown to hold end to end, and a new task is covered as soon as it joins
// the suite:
//
//   - the workflow track, whose model answers with the task's partial/ fix
//     as its one edit, fails, and the test run after that edit shows the
//     task's partial_expect (a task without partial/ answers with its
//     solution/ instead and passes, when that is one file);
//   - the agent track, whose model writes the partial fix, runs the tests,
//     then writes the rest of the fix and runs them again, passes.
//
// It lives in runner/ and uses only the runner's public API (hence package
// runner_test): runner.Run with the registry of tracks (runner.ConfigFrom),
// so the episodes get the real workspace, the real workflow and agent
// tracks, the real model client (model.New against a modeltest fake
// Ollama) and the real sealed grading. Only the sink is a fake, so that the
// test can read each episode's trajectory events in memory.
//
// Every (task, track) pair is a parallel subtest: at most -test.parallel
// (GOMAXPROCS by default) episodes run at once. Go tasks need go on PATH,
// offline, and use bench's Go build caches under the user cache folder
// (testrun.GoCacheDir); Python tasks need python3. Under -short it is
// skipped, like TestVerifySuite. It grades in the sandbox, as bench run
// does, unlike the package's other tests (sandboxed).
func TestArchetypes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs both tracks on every task of the suite")
	}
	sandboxed(t)
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		t.Run(tk.Name, func(t *testing.T) {
			needTestTool(t, tk)
			t.Parallel()
			t.Run("workflow", func(t *testing.T) { t.Parallel(); checkWorkflow(t, tk) })
			t.Run("agent", func(t *testing.T) { t.Parallel(); checkAgent(t, tk) })
		})
	}
}

// checkWorkflow runs the workflow track with the model's one edit being
// the task's partial/ fix (then the episode fails with partial_expect in
// the test run after the edit) or, for a task without partial/, its
// one-file solution/ (then it passes).
func checkWorkflow(t *testing.T, tk tasks.Task) {
	partial := overlayFiles(t, tk, "partial")
	sub, edit := "partial", partial
	if len(partial) == 0 {
		sub, edit = "solution", overlayFiles(t, tk, "solution")
	}
	if len(edit) != 1 {
		t.Skipf("the workflow writes one file, and %s/ holds %d (%s): no one-edit reply to script", sub, len(edit), strings.Join(slices.Sorted(maps.Keys(edit)), ", "))
	}
	file := slices.Sorted(maps.Keys(edit))[0]
	srv := modeltest.NewOllama(t, modeltest.Text("FILE: "+file+"\n"+fenced(edit[file])))
	ep, traj := runEpisode(t, srv, tk, "workflow")

	if ep.ExitReason != record.ExitDone || ep.Error != "" {
		t.Fatalf("exit %s, error %q; want done", ep.ExitReason, ep.Error)
	}
	if srv.Remaining() != 0 || len(srv.Requests()) != 1 {
		t.Errorf("%d requests, %d replies left; want exactly the one call", len(srv.Requests()), srv.Remaining())
	}
	if w := traj.Of(record.EventWrite); len(w) != 1 || w[0].Path != file {
		t.Errorf("write events %+v; want one write of %s", w, file)
	}
	runs := traj.Of(record.EventTestRun)
	if len(runs) != 2 {
		t.Fatalf("%d test runs, want 2 (before and after the edit)", len(runs))
	}
	if prompt := firstUserMessage(srv.Requests()[0]); !strings.Contains(prompt, tk.Source) || !strings.Contains(prompt, firstLine(runs[0].Output)) {
		t.Errorf("the workflow's request names neither the source %s nor the first test run's output:\n%s", tk.Source, prompt)
	}
	after := runs[1]
	if sub == "solution" {
		if !ep.Passed || after.TestsPassed != after.TestsTotal {
			t.Errorf("the one-file solution as the workflow's edit: passed %v, %d/%d in the test run, failed %v; want a pass", ep.Passed, after.TestsPassed, after.TestsTotal, ep.FailedTests)
		}
		return
	}
	if ep.Passed {
		t.Errorf("the partial fix as the workflow's edit passed (graded %d/%d); the task is meant to defeat one edit", ep.TestsPassed, ep.TestsTotal)
	}
	if !strings.Contains(after.Output, tk.PartialExpect) {
		t.Errorf("the test run after the partial fix (%d/%d passed) lacks partial_expect %q:\n%s", after.TestsPassed, after.TestsTotal, tk.PartialExpect, after.Output)
	}
}

// checkAgent runs the agent track with a model that writes the partial/
// fix, runs the tests, writes the rest of the fix and runs them again; a
// task without partial/ writes its solution/ and runs the tests once.
func checkAgent(t *testing.T, tk tasks.Task) {
	partial, solution := overlayFiles(t, tk, "partial"), overlayFiles(t, tk, "solution")
	var script []modeltest.Reply
	if len(partial) > 0 {
		script = append(script, writeFiles(partial), runTests())
	}
	script = append(script, writeFiles(rest(t, tk, partial, solution)), runTests(), modeltest.Text("The tests pass."))
	srv := modeltest.NewOllama(t, script...)
	ep, traj := runEpisode(t, srv, tk, "agent")

	if !ep.Passed || ep.ExitReason != record.ExitDone || ep.Error != "" || ep.TestsTampered {
		t.Fatalf("passed %v (%d/%d, failed %v), exit %s, error %q, tampered %v; want a clean pass",
			ep.Passed, ep.TestsPassed, ep.TestsTotal, ep.FailedTests, ep.ExitReason, ep.Error, ep.TestsTampered)
	}
	if srv.Remaining() != 0 {
		t.Errorf("%d scripted replies were never asked for", srv.Remaining())
	}
	results := toolResults(traj, "run_tests")
	if len(partial) > 0 {
		if len(results) != 2 {
			t.Fatalf("%d run_tests results, want 2", len(results))
		}
		if !strings.Contains(results[0], tk.PartialExpect) || strings.HasPrefix(results[0], fmt.Sprintf("%d/%d passed", ep.TestsTotal, ep.TestsTotal)) {
			t.Errorf("run_tests after the partial fix does not fail with partial_expect %q:\n%s", tk.PartialExpect, results[0])
		}
	}
	if want := fmt.Sprintf("%d/%d passed\n", ep.TestsTotal, ep.TestsTotal); len(results) == 0 || !strings.HasPrefix(results[len(results)-1], want) {
		t.Errorf("the last run_tests result does not begin %q: %q", want, results)
	}
}

// rest is what the agent writes after the partial fix so that the
// workspace becomes repo/ + solution/: every solution/ file, and the repo/
// version of each partial/ file that solution/ leaves alone (the partial
// fix of go_shapes, say, is in a file the real fix does not touch).
func rest(t *testing.T, tk tasks.Task, partial, solution map[string]string) map[string]string {
	out := maps.Clone(solution)
	for p := range partial {
		if _, ok := solution[p]; ok {
			continue
		}
		orig, err := fs.ReadFile(tk.FS, path.Join("repo", p))
		if err != nil {
			t.Fatalf("partial/%s is not in solution/ and has no repo/ version to put back (the agent has no tool to delete it): %v", p, err)
		}
		out[p] = string(orig)
	}
	return out
}

// overlayFiles returns the files of the task's folder sub ("partial" or
// "solution") by path relative to it; none when the folder is missing.
func overlayFiles(t *testing.T, tk tasks.Task, sub string) map[string]string {
	files := map[string]string{}
	err := fs.WalkDir(tk.FS, sub, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(tk.FS, p)
		files[strings.TrimPrefix(p, sub+"/")] = string(b)
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return files
}

// writeFiles is a reply asking write_file for each file, in path order.
func writeFiles(files map[string]string) modeltest.Reply {
	var calls []model.ToolCall
	for _, p := range slices.Sorted(maps.Keys(files)) {
		args, _ := json.Marshal(map[string]string{"path": p, "content": files[p]})
		calls = append(calls, modeltest.Call("write_file", string(args)))
	}
	return modeltest.Calls(calls...)
}

func runTests() modeltest.Reply { return modeltest.Calls(modeltest.Call("run_tests", `{}`)) }

// runEpisode runs one episode of tk on the named track with the registry
// of tracks, the run defaults and the real client of srv, and returns it
// with its trajectory.
func runEpisode(t *testing.T, srv *modeltest.Server, tk tasks.Task, trackName string) (record.Episode, *tracktest.MemTrajectory) {
	t.Helper()
	cfg := runner.ConfigFrom(record.Run{ID: "archetypes", RunSettings: record.DefaultSettings()})
	cfg.Model, cfg.Host = srv.Client(t), srv.URL
	sink := &tracktest.MemSink[runner.Trajectory]{}
	jobs := runner.PlanVariants([]tasks.Task{tk}, []string{trackName}, []string{""}, []string{""}, []int{1})
	if err := runner.RunPool(context.Background(), cfg, []runner.Server{{URL: srv.URL, Slots: 1}}, sink, jobs, runner.PoolOptions{}); err != nil {
		t.Fatal(err)
	}
	eps := sink.Episodes()
	if len(eps) != 1 {
		t.Fatalf("%d episodes recorded, want 1", len(eps))
	}
	traj := sink.TrajectoryOf(eps[0].Key())
	if traj == nil {
		t.Fatalf("episode %s has no trajectory", eps[0].Key())
	}
	return eps[0], traj
}

// needTestTool skips a task whose test command's program is not on PATH.
func needTestTool(t *testing.T, tk tasks.Task) {
	t.Helper()
	if _, err := exec.LookPath(tk.TestCmd[0]); err != nil {
		t.Skipf("%s is not on PATH", tk.TestCmd[0])
	}
}

// fenced wraps text in a code fence longer than any fence inside it.
func fenced(text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "\n" + text + fence + "\n"
}

func firstUserMessage(r modeltest.Request) string {
	for _, m := range r.Messages {
		if m.Role == model.RoleUser {
			return m.Content
		}
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// toolResults returns the results of the named tool, in order.
func toolResults(traj *tracktest.MemTrajectory, tool string) []string {
	var out []string
	for _, ev := range traj.Of(record.EventToolResult) {
		if ev.Tool == tool {
			out = append(out, ev.Result)
		}
	}
	return out
}
