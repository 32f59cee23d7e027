package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
)

// faultsHeldRun starts bench run in the background on leap_year's workflow
// with the seeds given, against a fake whose replies wait until release is
// called; it returns once the first episode is in flight (its folder made).
// wait waits for the run and returns its error and stderr.
func faultsHeldRun(t *testing.T, dir, seeds string, resume bool) (release func(), wait func() (string, error)) {
	t.Helper()
	solver := testsupport.NewSolver(t)
	gate := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		<-gate
		return solver.Reply(r)
	})))
	t.Cleanup(release) // before the server's own cleanup, which waits for its handlers
	args := []string{"run", "--host", srv.URL, "--tracks", "workflow", "--tasks", "leap_year", "--seeds", seeds, "--out", dir}
	if resume {
		args = []string{"run", "--resume", dir, "--host", srv.URL}
	}
	var (
		err    error
		stderr string
		done   = make(chan struct{})
	)
	go func() {
		defer close(done)
		_, stderr, err = runCLI(t, args...)
	}()
	for deadline := time.Now().Add(60 * time.Second); len(srv.Requests()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			release()
			<-done
			t.Fatalf("the first run never called the model: %v\n%s", err, stderr)
		}
	}
	return release, func() (string, error) { <-done; return stderr, err }
}

// TestFaultsOneWriterPerRunFolder: while a run writes its folder, a second
// bench run --resume (or a new run on it) is refused at once, saying which
// process holds it, and changes nothing; bench report still reads the live
// run; once the first is done, the folder can be resumed again.
func TestFaultsOneWriterPerRunFolder(t *testing.T) {
	fixture.FullOnly(t, "record's TestOneWriterPerFolder")
	t.Parallel()
	oracle := filepath.Join(t.TempDir(), "oracle")
	if _, stderr, err := runCLI(t, "run", "--tracks", "oracle", "--tasks", "leap_year", "--seeds", "1", "--out", oracle); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	dir := filepath.Join(t.TempDir(), "run")
	release, wait := faultsHeldRun(t, dir, "1,2", false)

	host, _ := os.Hostname()
	for _, c := range []struct {
		args []string
		lock bool // refused for the lock, at once
	}{
		{[]string{"run", "--resume", dir, "--timeout", "3s"}, true}, // were it let through, its calls would wait for the gate
		{[]string{"run", "--resume", dir, "--tracks", "oracle"}, false},
		{[]string{"run", "--tracks", "oracle", "--tasks", "leap_year", "--out", dir}, false},
	} {
		args := c.args
		start := time.Now()
		_, stderr, err := runCLI(t, args...)
		if err == nil {
			t.Fatalf("%q on a folder being written succeeded:\n%s", args, stderr)
		}
		if c.lock {
			for _, want := range []string{"being written by another bench", fmt.Sprintf("pid %d", os.Getpid()), host, "since"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q: refusal %q lacks %q", args, err, want)
				}
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("%q was refused only after %v: refuse at once", args, time.Since(start))
			}
		}
	}
	// bench report reads the live run.
	if stdout, stderr, err := runCLI(t, "report", dir); err != nil || !strings.Contains(stdout, "run run:") {
		t.Errorf("bench report of the live run: %v\n%s%s", err, stdout, stderr)
	}
	release()
	if stderr, err := wait(); err != nil {
		t.Fatalf("the first run: %v\n%s", err, stderr)
	}
	data, err := record.Read(dir)
	if err != nil || len(data.Episodes) != 2 || len(data.Warnings) != 0 {
		t.Fatalf("after the first run: %v, %d episodes, warnings %q", err, len(data.Episodes), data.Warnings)
	}
	for _, ep := range data.Episodes {
		if !ep.Passed {
			t.Errorf("%s: %s %q", ep.Key(), ep.ExitReason, ep.Error)
		}
	}
	// Released with the process's files: a resume now goes ahead.
	if _, stderr, err := runCLI(t, "run", "--resume", dir); err != nil || !strings.Contains(stderr, "2 already finished") {
		t.Fatalf("resume after the writer finished: %v\n%s", err, stderr)
	}
}

// TestFaultsTwoResumesAtOnce: of two bench run --resume started on one
// folder at once, one runs the pending episodes and the other is refused;
// every episode is recorded once, with its own trajectory.
func TestFaultsTwoResumesAtOnce(t *testing.T) {
	fixture.FullOnly(t, "record's TestOneWriterPerFolder and TestFaultsRefusalOnResume")
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	// A run of 4 whose model is gone after the preflight: every episode is lost, to be resumed.
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Status(503).WithHeader("Retry-After", "0")))
	if _, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tracks", "workflow", "--tasks", "leap_year", "--seeds", "1,2", "--out", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	release, wait := faultsHeldRun(t, dir, "", true)
	_, stderr, err := runCLI(t, "run", "--resume", dir, "--timeout", "3s")
	if err == nil || !strings.Contains(err.Error(), "being written by another bench") {
		t.Fatalf("the second resume: %v\n%s", err, stderr)
	}
	release()
	if stderr, err := wait(); err != nil {
		t.Fatalf("the first resume: %v\n%s", err, stderr)
	}
	data, _ := record.Read(dir)
	for _, ep := range data.Episodes {
		if !ep.Passed {
			t.Errorf("%s: %s %q", ep.Key(), ep.ExitReason, ep.Error)
		}
	}
	if len(data.Episodes) != 2 || len(data.MissingTrajectories()) != 0 {
		t.Fatalf("%d episodes, %d without trajectory", len(data.Episodes), len(data.MissingTrajectories()))
	}
}
