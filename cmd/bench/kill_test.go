package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// TestRunSurvivesKill9 kills a real bench process in the middle of a run
// and resumes it: every episode must then be recorded exactly once, each
// with a complete trajectory.
func TestRunSurvivesKill9(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a subprocess for a few seconds")
	}
	dir := filepath.Join(t.TempDir(), "killed")
	args := []string{"run", "--tracks", "oracle", "--seeds", "1,2,1", "--out", dir}
	const total = 4 * 3
	cmd, out := startBench(t, args...)
	eps := filepath.Join(dir, "episodes.jsonl")
	waitForLines(t, cmd, out, eps, 3)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	before := lines(eps)
	if before >= total {
		t.Fatalf("the run finished (%d episodes) before the kill; make it longer", before)
	}

	stdout, stderr, err := runCLI(t, "run", "--resume", dir)
	if err != nil {
		t.Fatalf("resume: %v\n%s\n%s", err, stdout, stderr)
	}
	raw, _ := os.ReadFile(eps)
	seen := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var ep record.Episode
		if err := jsonUnmarshal(line, &ep); err != nil {
			t.Fatalf("episodes.jsonl holds a bad line after resume: %q: %v", line, err)
		}
		seen[ep.Key()]++
	}
	if len(seen) != total {
		t.Fatalf("%d distinct episodes after resume, want %d (killed after %d)", len(seen), total, before)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("episode %s recorded %d times", k, n)
		}
		evs, warns, err := record.ReadTrajectory(filepath.Join(dir, "trajectories", k+".jsonl"))
		if err != nil || len(warns) != 0 || len(evs) == 0 || evs[len(evs)-1].Kind != record.EventEnd {
			t.Errorf("trajectory of %s: %d events, warnings %q, err %v; want a clean one ending in end", k, len(evs), warns, err)
		}
	}
	t.Logf("killed after %d of %d episodes; resume finished the rest", before, total)
}

// lines counts the complete lines of a file (0 when it does not exist).
func lines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte{'\n'})
}

func jsonUnmarshal(line string, v any) error { return json.Unmarshal([]byte(line), v) }

// startBench starts the test binary as a bench process.
func startBench(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	return startBenchEnv(t, nil, args...)
}

// startBenchEnv is startBench with env added to the process's environment.
func startBenchEnv(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), benchAsSubprocess+"=1"), env...)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, out
}

// waitForLines waits until the file holds n complete lines.
func waitForLines(t *testing.T, cmd *exec.Cmd, out *bytes.Buffer, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // generous: a loaded machine runs Python slowly
	for lines(path) < n {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no %d lines in %s after 60s; output:\n%s", n, path, out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRunFirstInterruptStopsCleanly sends one SIGINT to a bench process
// while its third episode waits on the model: that episode is recorded as
// interrupted, no further one starts, bench exits 130 saying how to resume,
// and --resume redoes the interrupted episode and finishes the run.
func TestRunFirstInterruptStopsCleanly(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a subprocess for a few seconds")
	}
	solver := testsupport.NewSolver(t)
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		if r.N == 2 {
			return modeltest.Hang()
		}
		return solver.Reply(r)
	})))
	dir := filepath.Join(t.TempDir(), "stopped")
	args := []string{"run", "--host", srv.URL, "--tracks", "workflow", "--tasks", "leap_year,word_freq", "--seeds", "1,2,3,4", "--out", dir}
	cmd, out := startBench(t, args...)
	deadline := time.Now().Add(30 * time.Second)
	for len(srv.Requests()) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the third model call never came; output:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("bench after one interrupt: %v, want exit status 130; output:\n%s", err, out.String())
	}
	if want := "bench run --resume " + dir; !strings.Contains(out.String(), want) {
		t.Fatalf("no %q in the output:\n%s", want, out.String())
	}
	data, err := record.Read(dir)
	if err != nil || len(data.Warnings) != 0 {
		t.Fatalf("results after an interrupt: %v, warnings %q", err, data.Warnings)
	}
	exits := map[record.ExitReason]int{}
	for _, ep := range data.Episodes {
		exits[ep.ExitReason]++
	}
	if len(data.Episodes) != 3 || exits[record.ExitDone] != 2 || exits[record.ExitInterrupted] != 1 {
		t.Fatalf("after the interrupt: exits %v, want 2 done and 1 interrupted, and nothing started after", exits)
	}

	// The fake hangs on the third call only; the redone episode gets an answer.
	if _, stderr, err := runCLI(t, "run", "--resume", dir); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	data, _ = record.Read(dir)
	if len(data.Episodes) != 8 {
		t.Fatalf("%d episodes after resume, want 8", len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if ep.ExitReason != record.ExitDone || !ep.Passed {
			t.Errorf("%s after resume: exit %s, passed %v", ep.Key(), ep.ExitReason, ep.Passed)
		}
	}
}

// TestRunSecondInterruptRemovesWorkspaces sends two SIGINTs to a bench
// process while an episode is being graded (grading goes on after the
// first, to finish the record): bench quits at once with status 130, and
// leaves neither a process of the model's code nor a folder behind: no
// workspace, no sealed grading copy, no temporary folder of a test run.
func TestRunSecondInterruptRemovesWorkspaces(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a subprocess for a few seconds")
	}
	fixture.NeedPython(t)
	token := fmt.Sprintf("bench-slow-grading-%d-%d", os.Getpid(), time.Now().UnixNano())
	slow := testsupport.TaskFile(t, leapTask(t), "repo") + fmt.Sprintf(
		"\nimport subprocess\nsubprocess.run([\"sh\", \"-c\", \"sleep 60\", %q])\n", token)
	srv := modeltest.NewOllama(t, scriptedModel(map[int]script{1: {calls: []model.ToolCall{writeFile("leap.py", slow)}}}))
	tmp := t.TempDir()
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(os.Args[0], "run", "--host", srv.URL, "--tracks", "agent", "--tasks", "leap_year", "--out", dir)
	cmd.Env = append(os.Environ(), benchAsSubprocess+"=1", "TMPDIR="+tmp)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	deadline := time.Now().Add(60 * time.Second)
	for len(processesWith(token)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("grading never started the slow code; output:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	for !strings.Contains(out.String(), "press Ctrl-C again") {
		if time.Now().After(deadline) {
			t.Fatalf("no word of the first interrupt; output:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 || !strings.Contains(out.String(), "second interrupt") {
		t.Fatalf("bench after two interrupts: %v, want exit status 130; output:\n%s", err, out)
	}
	if pids := survivors(token); len(pids) > 0 {
		t.Errorf("the model's code %v outlived bench", pids)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "*"))
	if len(left) > 0 {
		t.Errorf("bench left %q behind in its TMPDIR", left)
	}
}

// syncBuffer is a bytes.Buffer that a running process and the test can
// use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
