package main

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bench/internal/cliexit"
)

// TestExitCodesPerCommand runs every command with a mistake on its command
// line (exit 2) and with a right command line whose work fails (exit 1).
func TestExitCodesPerCommand(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "missing")
	file := filepath.Join(tmp, "a-file")
	if err := os.WriteFile(file, []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused := "http://127.0.0.1:1" // nothing listens on port 1
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"nope"}, exitUsage},
		{[]string{"help", "nope"}, exitUsage},
		{[]string{"--nope"}, exitUsage},

		{[]string{"version", "--nope"}, exitUsage},
		{[]string{"version", "extra"}, exitUsage},

		{[]string{"tasks", "--nope"}, exitUsage},
		{[]string{"tasks", "--format", "xml"}, exitUsage},
		{[]string{"tasks", "nope"}, exitUsage},
		{[]string{"tasks", "--tasks-dir", missing}, exitFailure},
		{[]string{"tasks", "verify", "nope"}, exitUsage},
		{[]string{"tasks", "new"}, exitUsage},
		{[]string{"tasks", "new", "a", "b"}, exitUsage},
		{[]string{"tasks", "new", "--dir", file, "x"}, exitFailure},
		{[]string{"tasks", "new", "--dir", tmp, "9lives"}, exitUsage},
		{[]string{"tasks", "new", "--dir", tmp, "leap_year"}, exitUsage},

		{[]string{"predict", "extra"}, exitUsage},
		{[]string{"predict", "--answer", "leap_year=yy", "--tasks", "leap_year"}, exitUsage},
		{[]string{"predict", "--out", filepath.Join(missing, "p.json"), "--answer", "leap_year=yyy", "--tasks", "leap_year"}, exitFailure},

		{[]string{"check", tmp}, exitUsage},
		{[]string{"check", "--predictions", missing}, exitUsage},
		{[]string{"check", "--predictions", missing, tmp}, exitFailure},

		{[]string{"report"}, exitUsage},
		{[]string{"report", tmp, "--format", "xml"}, exitUsage},
		{[]string{"report", tmp, "--nope"}, exitUsage},
		{[]string{"report", missing}, exitFailure},

		{[]string{"compare", tmp}, exitUsage},
		{[]string{"compare", tmp, tmp, tmp}, exitUsage},
		{[]string{"compare", "--alpha", "2", tmp, tmp}, exitUsage},
		{[]string{"compare", missing, tmp}, exitFailure},

		{[]string{"detect", "extra"}, exitUsage},
		{[]string{"detect", "--dir", tmp, "--mode", "sometimes"}, exitUsage},
		{[]string{"detect", "--check", "--expected", missing}, exitFailure},

		{[]string{"show"}, exitUsage},
		{[]string{"show", tmp, tmp}, exitUsage},
		{[]string{"show", tmp, "--nope"}, exitUsage},
		{[]string{"show", missing}, exitFailure},

		{[]string{"tokens", "--nope"}, exitUsage},
		{[]string{"tokens", "a", "b"}, exitUsage},
		{[]string{"tokens", missing}, exitFailure},
		{[]string{"tokens", "--encoding", "nope", file}, exitUsage},

		{[]string{"doctor", "extra"}, exitUsage},
		{[]string{"doctor", "--retry-window", "-1s"}, exitUsage},
		{[]string{"doctor", "--host", refused, "--retry-window", "0s", "--tasks", "leap_year"}, exitFailure},

		{[]string{"run", "extra"}, exitUsage},
		{[]string{"run", "--parallel", "x"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--parallel", "0"}, exitUsage},
		{[]string{"run", "--tracks", "nope"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--tasks", "nope"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--seeds", "1,,2"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--shard", "x"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--sandbox", "nope"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--tasks", "leap_year", "--parallel", "1", "--parallel", "2"}, exitUsage},
		{[]string{"run", "--tracks", "oracle", "--out", file}, exitFailure},
		{[]string{"run", "--resume", missing}, exitFailure},
	} {
		_, _, err := runCLI(t, tc.args...)
		if code := exitCode(err, io.Discard); code != tc.code {
			t.Errorf("bench %s: exit %d (%v), want %d", strings.Join(tc.args, " "), code, err, tc.code)
		}
	}
}

// TestExitCodeInterrupted interrupts commands while they wait on a server
// that does not answer: doctor, which does not handle an interrupt itself
// and exits 130 at once, and bench run in its checks before the run
// begins, which stops cleanly: it exits 130 too, saying it was
// interrupted, not that the server failed, and creates nothing. bench
// run's 130 during episodes is TestRunFirstInterruptStopsCleanly's.
func TestExitCodeInterrupted(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "never")
	for _, args := range [][]string{
		{"doctor", "--tasks", "leap_year"},
		{"run", "--tasks", "leap_year", "--tracks", "workflow", "--out", out},
	} {
		t.Run(args[0], func(t *testing.T) {
			got := interruptWhileAsking(t, args...)
			if !strings.Contains(got, "interrupted") || strings.Contains(got, "could not use the model server") {
				t.Errorf("bench %s, interrupted, does not say so or blames the server:\n%s", args[0], got)
			}
		})
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a run interrupted in its checks left %s behind (%v)", out, err)
	}
}

// interruptWhileAsking starts bench with args against a server that never
// answers, interrupts it once it asks, checks that it exits 130, and
// returns what it printed.
func interruptWhileAsking(t *testing.T, args ...string) string {
	t.Helper()
	asked := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case asked <- struct{}{}:
		default:
		}
		<-release
	}))
	defer srv.Close()
	defer close(release)
	cmd, out := startBench(t, append(args, "--host", srv.URL)...)
	select {
	case <-asked: // bench is running its checks, so main has its signal handler
	case <-time.After(30 * time.Second):
		t.Fatalf("bench %s never asked the server:\n%s", args[0], out)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != cliexit.Interrupted {
		t.Fatalf("an interrupted bench %s: %v, want exit %d:\n%s", args[0], err, cliexit.Interrupted, out)
	}
	return out.String()
}
