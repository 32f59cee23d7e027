package main

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/record"
)

// faultsTmpfs mounts a tmpfs of size (as mount takes it: "64m") on a new
// folder and returns it; it is unmounted at cleanup. It skips the test,
// saying why, where this process may not mount (mounting needs root).
func faultsTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tmpfs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (%v): a full disk is tested for real only where bench's tests may mount; runner's tests inject the fault", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// faultsFill fills dir's filesystem with a file and keeps it full, taking
// every page freed later (the workspaces bench removes), until the returned
// stop is called; stop removes the file.
func faultsFill(t *testing.T, dir string) (stop func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		chunk := make([]byte, 4096)
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := f.Write(chunk); err != nil {
				time.Sleep(time.Millisecond) // full: wait for a page to be freed
			}
		}
	}()
	for { // full once a write fails
		if _, err := f.Write(make([]byte, 1<<20)); errors.Is(err, syscall.ENOSPC) {
			break
		} else if err != nil {
			t.Fatalf("filling %s: %v", dir, err)
		}
	}
	return func() {
		close(done)
		<-finished
		f.Close()
		os.Remove(path)
	}
}

// faultsBench starts bench (this test binary as the command) with args and
// extra environment, and returns it with its stderr as lines.
func faultsBench(t *testing.T, env []string, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), benchAsSubprocess+"=1"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(stderr)
}

// TestFaultsFullTempDiskIsLost fills, mid-run, the real filesystem the
// workspaces are made on (TMPDIR on a tmpfs): the episode that cannot get
// its workspace is lost, not a result; the run stops at once saying the
// disk is full; once space is freed, --resume redoes it and finishes.
func TestFaultsFullTempDiskIsLost(t *testing.T) {
	fixture.FullOnly(t, "nothing: a tmpfs filled while a run writes has no faster test")
	t.Parallel()
	tmp := faultsTmpfs(t, "64m")
	dir := filepath.Join(t.TempDir(), "run")
	stderr, unfill := faultsRunUntilFull(t, []string{"TMPDIR=" + tmp}, tmp, dir, "temp")
	data, rerr := record.Read(dir)
	if rerr != nil {
		t.Fatal(rerr)
	}
	lost := 0
	for _, ep := range data.Episodes {
		switch {
		case ep.Lost() && ep.ErrorKind == record.ErrorFault:
			lost++
		case !ep.Passed:
			t.Errorf("%s stands as a result: exit %s, kind %q: %s", ep.Key(), ep.ExitReason, ep.ErrorKind, ep.Error)
		}
	}
	if lost != 1 || len(data.Episodes) >= 6 {
		t.Fatalf("%d lost of %d episodes; want the run stopped at the first lost one:\n%s", lost, len(data.Episodes), stderr.String())
	}
	unfill()
	if _, stderr, err := runCLI(t, "run", "--resume", dir); err != nil {
		t.Fatalf("resume once space is free: %v\n%s", err, stderr)
	}
	data, _ = record.Read(dir)
	if len(data.Episodes) != 6 {
		t.Fatalf("%d episodes after resume, want 6", len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if !ep.Passed {
			t.Errorf("%s after resume: %s %q", ep.Key(), ep.ExitReason, ep.Error)
		}
	}
}

// TestFaultsFullResultsDiskLosesNoFinishedEpisode fills, mid-run, the real
// filesystem the results folder is on: an episode whose trajectory or line
// cannot be written is lost, never a result; the run stops at once saying
// the disk is full; no episode stands without its whole trajectory; once
// space is freed, --resume finishes the run.
func TestFaultsFullResultsDiskLosesNoFinishedEpisode(t *testing.T) {
	fixture.FullOnly(t, "nothing: a tmpfs filled while a run writes has no faster test")
	t.Parallel()
	disk := faultsTmpfs(t, "16m")
	dir := filepath.Join(disk, "run")
	_, unfill := faultsRunUntilFull(t, nil, disk, dir, "results")
	faultsCheckTrajectories(t, dir)
	unfill()
	if _, stderr, err := runCLI(t, "run", "--resume", dir); err != nil {
		t.Fatalf("resume once space is free: %v\n%s", err, stderr)
	}
	data := faultsCheckTrajectories(t, dir)
	if len(data.Episodes) != 6 {
		t.Fatalf("%d episodes after resume, want 6", len(data.Episodes))
	}
	for _, ep := range data.Episodes {
		if !ep.Passed {
			t.Errorf("%s after resume: %s %q", ep.Key(), ep.ExitReason, ep.Error)
		}
	}
}

// faultsCheckTrajectories reads the run in dir and checks that every
// episode that stands has its whole trajectory: the file holds an end
// event and has the digest its line recorded.
func faultsCheckTrajectories(t *testing.T, dir string) record.Data {
	t.Helper()
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range data.Episodes {
		if ep.Lost() {
			continue
		}
		path := data.TrajectoryPath(ep)
		events, _, err := record.ReadTrajectory(path)
		if err != nil || len(events) == 0 || events[len(events)-1].Kind != record.EventEnd {
			t.Errorf("%s stands (passed %v) without its whole trajectory: %v, %d events", ep.Key(), ep.Passed, err, len(events))
			continue
		}
		body, _ := os.ReadFile(path)
		if sum := fmt.Sprintf("%x", sha256.Sum256(body)); sum != ep.TrajectorySHA256 {
			t.Errorf("%s: trajectory digest %s, its line says %s", ep.Key(), sum, ep.TrajectorySHA256)
		}
	}
	return data
}

// faultsRunUntilFull runs the oracle over six seeds of leap_year into dir
// with env, fills the tmpfs full once the first episode has finished, and
// checks that the run stopped with exit 1, naming the full disk and how to
// resume; it returns bench's stderr and the function that empties full.
func faultsRunUntilFull(t *testing.T, env []string, full, dir, what string) (*strings.Builder, func()) {
	t.Helper()
	cmd, lines := faultsBench(t, env, "run", "--tracks", "oracle", "--tasks", "leap_year",
		"--seeds", "1,2,3,4,5,6", "--parallel", "1", "--out", dir)
	var stderr strings.Builder
	var unfill func()
	for lines.Scan() {
		stderr.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "[1/6]") && unfill == nil {
			unfill = faultsFill(t, full)
		}
	}
	err := cmd.Wait()
	if unfill == nil {
		t.Fatalf("no episode finished before the disk was to be filled (%v):\n%s", err, stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("a run whose %s disk filled up: %v, want exit 1:\n%s", what, err, stderr.String())
	}
	for _, want := range []string{"no space left on device", "stopped", "bench run --resume " + dir} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	return &stderr, unfill
}
