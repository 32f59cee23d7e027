package main

import (
	"cmp"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/runflags"
)

// replaycliRecord runs bench run on the tasks of tasksDir (the course
// tasks when "") with the lesson's scripted model on a fake Ollama, then
// stops the server: what is replayed can only come from the recording.
// It returns the run folder and the number of requests the server took.
func replaycliRecord(t *testing.T, tasksDir string, extra ...string) (string, int) {
	t.Helper()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(newLessonModel(t).Reply)))
	dir := filepath.Join(t.TempDir(), "recorded")
	args := append([]string{"run", "--host", srv.URL, "--seeds", "1", "--out", dir}, extra...)
	if !slices.Contains(extra, "--tracks") {
		args = append(args, "--tracks", "workflow,agent")
	}
	if tasksDir != "" {
		args = append(args, "--tasks-dir", tasksDir)
	}
	if stdout, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("bench run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	srv.Close()
	return dir, len(srv.Requests())
}

// replaycliReplay runs bench run --replay DIR into a new folder and
// returns the folder, what it read back and what the command printed.
func replaycliReplay(t *testing.T, dir string, extra ...string) (string, record.Data, string, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "replayed")
	stdout, stderr, err := runCLI(t, append([]string{"run", "--replay", dir, "--out", out}, extra...)...)
	if err != nil {
		t.Fatalf("bench run --replay: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	data, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, data, stdout, stderr
}

// replaycliVerdict is what a replay must reproduce of an episode.
func replaycliVerdict(ep record.Episode) string {
	b, _ := json.Marshal([]any{ep.Passed, ep.TestsPassed, ep.TestsTotal, ep.FailedTests, ep.ExitReason, ep.ErrorKind,
		ep.Turns, ep.ModelCalls, ep.ToolCalls, ep.Steps, ep.PromptTokens, ep.CompletionTokens, ep.EstPromptTokens, ep.EstCompletionTokens, ep.TestsTampered})
	return string(b)
}

// TestReplaycliReplaysWithTheServerStopped records the lesson's model on
// parse_date (the workflow fails it, the agent solves it),
// stops the server and replays the run through the CLI: every episode
// comes out as recorded (passed, tests, exit reason, every token count),
// each line says it replayed identically, run.json names the recording,
// and the report says how many replayed identically.
func TestReplaycliReplaysWithTheServerStopped(t *testing.T) {
	fixture.ParallelPython(t)
	rec, asked := replaycliRecord(t, "", "--tasks", "parse_date")
	want, err := record.Read(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Episodes) != 2 || asked == 0 {
		t.Fatalf("recorded %d episodes in %d requests", len(want.Episodes), asked)
	}
	out, got, stdout, stderr := replaycliReplay(t, rec, "--parallel", "2")
	if len(got.Episodes) != len(want.Episodes) {
		t.Fatalf("replayed %d episodes, recorded %d\n%s", len(got.Episodes), len(want.Episodes), stderr)
	}
	byKey := map[string]record.Episode{}
	for _, ep := range got.Episodes {
		byKey[ep.Key()] = ep
	}
	passes := 0
	for _, w := range want.Episodes {
		g, ok := byKey[w.Key()]
		if !ok {
			t.Fatalf("%s was not replayed", w.Key())
		}
		if replaycliVerdict(g) != replaycliVerdict(w) {
			t.Errorf("%s replayed differently:\nrecorded %s\nreplayed %s", w.Key(), replaycliVerdict(w), replaycliVerdict(g))
		}
		if g.Replay == nil || !g.Replay.Identical || g.Replay.First != nil {
			t.Errorf("%s: replay %+v, want identical", w.Key(), g.Replay)
		}
		if w.Passed {
			passes++
		}
	}
	if passes != 1 {
		t.Fatalf("the recording has %d passes, want 1 (the workflow fails parse_date): the replay would show nothing", passes)
	}
	of := got.Run.ReplayOf
	if of == nil || of.ID != want.Run.ID || of.UID != want.UID || of.Dir != rec || got.Run.ID != filepath.Base(out) || got.UID == want.UID {
		t.Fatalf("run.json replay_of %+v, id %s, uid %s; want the recording %s (%s)", of, got.Run.ID, got.UID, want.Run.ID, want.UID)
	}
	if got.Run.Model != want.Run.Model || got.Run.ModelDigest != want.Run.ModelDigest {
		t.Fatalf("the replay names model %s (%s), the recording %s (%s)", got.Run.Model, got.Run.ModelDigest, want.Run.Model, want.Run.ModelDigest)
	}
	if !strings.Contains(stderr, "no model server") {
		t.Errorf("stderr does not say no model server is used:\n%s", stderr)
	}
	line := "replay of " + want.Run.ID + " (" + rec + "): 2 episodes, 2 identical, 0 diverged (0 stopped), 0 skipped"
	if !strings.Contains(stdout, line) {
		t.Errorf("the report lacks %q:\n%s", line, stdout)
	}

	// bench compare says how many replayed identically, in either order;
	// of two runs that are not replay and recording, it says nothing.
	for _, args := range [][]string{{rec, out}, {out, rec}} {
		_, stderr, err := runCLI(t, append([]string{"compare"}, args...)...)
		if err != nil || !strings.Contains(stderr, out+" is a replay of "+rec+": 2 of 2 replayed identically") {
			t.Errorf("bench compare %v: %v\n%s", args, err, stderr)
		}
	}
	if _, stderr, err := runCLI(t, "compare", rec, rec); err != nil || strings.Contains(stderr, "replayed identically") {
		t.Errorf("bench compare of the recording with itself: %v\n%s", err, stderr)
	}

	// A replay run is not resumed: it would need the model server.
	if _, _, err := runCLI(t, "run", "--resume", out); err == nil || !strings.Contains(err.Error(), "a replay is not resumed") {
		t.Fatalf("bench run --resume of a replay: %v", err)
	}
}

// TestReplaycliRefusesATruncatedTrajectory cuts the last line (the end
// event) off a recorded trajectory: the replay is refused with the file
// named and what is missing, and nothing is created.
func TestReplaycliRefusesATruncatedTrajectory(t *testing.T) {
	fixture.ParallelPython(t)
	rec, _ := replaycliRecord(t, "", "--tasks", "leap_year", "--tracks", "agent")
	data, err := record.Read(rec)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(data.Episodes, func(ep record.Episode) bool { return ep.Track == "agent" })
	path := data.TrajectoryPath(data.Episodes[i])
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "replayed")
	_, _, err = runCLI(t, "run", "--replay", rec, "--out", out)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "without its end event: it was cut short") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("replaying a cut trajectory: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a refused replay created %s (%v)", out, err)
	}
}

// TestReplaycliEditedTaskDivergesAtTheStep records leap_year from a tasks
// folder, adds a seventh test to it, and replays with that folder: the
// task is named in a warning; the workflow diverges at its first test run
// and goes on; the agent, whose next call answers a run_tests result that
// changed, stops at that request with replay_diverged.
func TestReplaycliEditedTaskDivergesAtTheStep(t *testing.T) {
	fixture.FullOnly(t, "replay's TestReplayEditedTestsDiverge and TestReplaycliReplaysWithTheServerStopped")
	fixture.ParallelPython(t)
	tasksDir := t.TempDir()
	replaycliCopyTask(t, "leap_year", filepath.Join(tasksDir, "leap_edited"))
	rec, _ := replaycliRecord(t, tasksDir, "--tasks", "leap_edited")
	test := filepath.Join(tasksDir, "leap_edited", "repo", "test_leap.py")
	b, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	old := "    def test_days_in_year(self):"
	if strings.Count(string(b), old) != 1 {
		t.Fatalf("%s has no single %q", test, old)
	}
	edited := strings.Replace(string(b), old, "    def test_year_zero(self):\n        self.assertTrue(is_leap(0))\n\n"+old, 1)
	if err := os.WriteFile(test, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, got, stdout, stderr := replaycliReplay(t, rec, "--tasks-dir", tasksDir)
	if !strings.Contains(stderr, "warning: task leap_edited has changed since the recording") {
		t.Fatalf("no warning naming the changed task:\n%s", stderr)
	}
	recorded, err := record.Read(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range got.Episodes {
		r := ep.Replay
		if r == nil || r.Identical || r.First == nil {
			t.Fatalf("%s: replay %+v, want a divergence", ep.Key(), r)
		}
		i := slices.IndexFunc(recorded.Episodes, func(e record.Episode) bool { return e.Key() == ep.Key() })
		events, _, err := record.ReadTrajectory(recorded.TrajectoryPath(recorded.Episodes[i]))
		if err != nil {
			t.Fatal(err)
		}
		firstRun := slices.IndexFunc(events, func(ev record.Event) bool { return ev.Kind == record.EventTestRun })
		switch ep.Track {
		case "workflow":
			if r.First.Seq != firstRun || r.First.Kind != record.EventTestRun || !strings.Contains(r.First.Got, `tests_total="7"`) || r.Stopped != nil || ep.ExitReason != record.ExitDone || ep.TestsTotal != 7 {
				t.Fatalf("workflow: first divergence %v, stopped %v, exit %s, %d tests; want the first test run (seq %d), going on, graded on 7 tests",
					r.First, r.Stopped, ep.ExitReason, ep.TestsTotal, firstRun)
			}
		case "agent":
			result := slices.IndexFunc(events, func(ev record.Event) bool { return ev.Kind == record.EventToolResult && ev.Tool == "run_tests" })
			next := result + slices.IndexFunc(events[result:], func(ev record.Event) bool { return ev.Kind == record.EventRequest })
			s := r.Stopped
			if result < 0 || s == nil || s.Seq != next || s.Kind != record.EventRequest || !strings.Contains(s.Stop, "the result of run_tests changed") {
				t.Fatalf("agent: stopped at %v, want the request at recorded seq %d after the changed run_tests result", s, next)
			}
			if ep.ExitReason != record.ExitDiverged || !strings.Contains(ep.Error, "replay diverged at recorded seq") || ep.Verdict().Status != record.StatusDiverged {
				t.Fatalf("agent: exit %s, error %q, status %s; want replay_diverged with its step", ep.ExitReason, ep.Error, ep.Verdict().Status)
			}
		}
	}
	if !strings.Contains(stdout, "2 episodes, 0 identical, 2 diverged (1 stopped), 0 skipped") || strings.Contains(stdout, "incomplete:") {
		t.Errorf("the report does not count the divergences, or calls the stopped episode unfinished:\n%s", stdout)
	}
}

// replaycliCopyTask copies the course task name into dir as a task of
// dir's base name (a --tasks-dir task may not take a built-in's name).
func replaycliCopyTask(t *testing.T, name, dir string) {
	t.Helper()
	if err := fixture.CourseTask(t, name).CopyDir(".", dir); err != nil {
		t.Fatal(err)
	}
	toml := filepath.Join(dir, "task.toml")
	b, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	renamed := strings.Replace(string(b), `name = "`+name+`"`, `name = "`+filepath.Base(dir)+`"`, 1)
	if renamed == string(b) {
		t.Fatalf("%s names no task %s", toml, name)
	}
	if err := os.WriteFile(toml, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplaycliRefusesRunDefiningFlags: every flag run.json records is
// refused with --replay (the recording defines it), as are --resume and
// the model server's flags; without them the same command gets past the
// flags (to the missing recording), so the check can fail.
func TestReplaycliRefusesRunDefiningFlags(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-run")
	values := map[string]string{"temperature": "0.5", "num-ctx": "2048", "top-p": "0.9", "max-tokens": "100", "max-reply-bytes": "1000",
		"max-turns": "3", "token-limit": "100", "tries": "2", "episode-timeout": "1m", "seeds": "2", "shard": "1/2", "run-uid": "x", "timeout": "1s", "retry-window": "1s", "parallel-per-host": "1"}
	for _, f := range append(slices.DeleteFunc(slices.Clone(runflags.Defining), func(f string) bool { return f == "out" }), runflags.ReplayNoServer...) {
		args := []string{"run", "--replay", missing, "--" + f}
		if f != "think" {
			args = append(args, cmp.Or(values[f], "x"))
		}
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), "--"+f) || !(strings.Contains(err.Error(), "--replay runs as the recording") || strings.Contains(err.Error(), "contacts no model server")) {
			t.Errorf("--replay with --%s: %v", f, err)
		}
	}
	for _, args := range [][]string{{"--dry-run"}, {"--calibrate", missing}} {
		if _, _, err := runCLI(t, append([]string{"run", "--replay", missing}, args...)...); err == nil || !strings.Contains(err.Error(), "no plan to estimate") {
			t.Errorf("--replay with %s: %v", args[0], err)
		}
	}
	if _, _, err := runCLI(t, "run", "--replay", missing, "--resume", missing); err == nil || !strings.Contains(err.Error(), "cannot be given together") {
		t.Errorf("--replay with --resume: %v", err)
	}
	_, _, err := runCLI(t, "run", "--replay", missing, "--parallel", "2", "--out", filepath.Join(t.TempDir(), "new"))
	if err == nil || strings.Contains(err.Error(), "cannot be given") || !strings.Contains(err.Error(), "reading the recording") {
		t.Fatalf("--replay of a missing folder with allowed flags: %v", err)
	}
}

// TestReplaycliRefusesBadParallel: --parallel 0 is a usage error, refused
// before anything is read or created, as bench run refuses it.
func TestReplaycliRefusesBadParallel(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "no-such-run") // the flags are checked before the recording is read
	out := filepath.Join(t.TempDir(), "new")
	_, _, err := runCLI(t, "run", "--replay", rec, "--parallel", "0", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "--parallel must be at least 1") || exitCode(err, io.Discard) != exitUsage {
		t.Fatalf("--replay --parallel 0: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a refused replay created %s (%v)", out, err)
	}
}

// TestReplaycliSkipsWhatTheRecordingDidNotFinish marks the recorded agent
// episode interrupted (its recording stops where the run did): the replay
// replays the workflow alone, run.json's replay_of lists the agent's as
// skipped and why, and the report counts it skipped, not unfinished.
func TestReplaycliSkipsWhatTheRecordingDidNotFinish(t *testing.T) {
	fixture.FullOnly(t, "the replay package's tests and TestReplaycliReplaysWithTheServerStopped")
	fixture.ParallelPython(t)
	rec, _ := replaycliRecord(t, "", "--tasks", "leap_year")
	path := filepath.Join(rec, record.EpisodesFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ep map[string]any
		if err := json.Unmarshal([]byte(line), &ep); err != nil {
			t.Fatal(err)
		}
		if ep["track"] == "agent" {
			ep["exit_reason"], ep["passed"] = record.ExitInterrupted, false
			out, _ := json.Marshal(ep)
			line = string(out)
		}
		lines = append(lines, line)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, got, stdout, stderr := replaycliReplay(t, rec)
	if len(got.Episodes) != 1 || got.Episodes[0].Track != "workflow" {
		t.Fatalf("replayed %d episodes, want the workflow's alone\n%s", len(got.Episodes), stderr)
	}
	sk := got.Run.ReplayOf.Skipped
	if len(sk) != 1 || !strings.HasPrefix(sk[0].Key, "leap_year/agent/") || !strings.Contains(sk[0].Reason, "interrupted") {
		t.Fatalf("replay_of.skipped %+v, want the agent's, interrupted", sk)
	}
	if !strings.Contains(stdout, "1 episode, 1 identical, 0 diverged (0 stopped), 1 skipped") || strings.Contains(stdout, "incomplete:") {
		t.Fatalf("the report does not count the skipped episode as skipped:\n%s", stdout)
	}
	if !strings.Contains(stderr, "1 not replayed (lost or interrupted in the recording)") {
		t.Fatalf("bench run --replay does not say it leaves one out:\n%s", stderr)
	}
}
