package tasks_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/tasks"
	"bench/testrun"
	"bench/testrun/gojson"
)

// TestSuiteVerifies runs every task of the suite for real, in temporary
// copies: repo/ fails, repo/ + partial/ fails with partial_expect in its
// output, repo/ + solution/ passes every test, and the folder is unchanged.
func TestSuiteVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every task's tests")
	}
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	// One Go build cache for every run, kept between test runs under the
	// temporary folder and started, as bench's own, from bench's share of
	// the standard library (its environment, testrun.GoEnv, finds its
	// packages): a cold cache compiles the library first, a minute of CPU
	// on a busy machine.
	gocache := filepath.Join(os.TempDir(), "bench-tasks-gocache")
	testrun.WarmGoCache(context.Background(), gocache)
	for _, tk := range all {
		t.Run(tk.Name, func(t *testing.T) {
			if _, err := exec.LookPath(tk.TestCmd[0]); err != nil {
				t.Skipf("%s is not installed", tk.TestCmd[0])
			}
			before, _ := tk.Checksum()
			if r := runOverlay(t, tk, "", gocache); r.passed {
				t.Errorf("repo/ passes; it must fail\n%s", r.text)
			}
			if tk.PartialExpect != "" {
				r := runOverlay(t, tk, "partial", gocache)
				if r.passed || !strings.Contains(r.text, tk.PartialExpect) {
					t.Errorf("partial/: passed %v, want a failure holding %q\n%s", r.passed, tk.PartialExpect, r.text)
				}
			}
			if r := runOverlay(t, tk, "solution", gocache); !r.passed {
				t.Errorf("solution/ fails\n%s", r.text)
			}
			if after, _ := tk.Checksum(); after != before {
				t.Error("the task folder changed")
			}
		})
	}
}

// outcome is one run of a task's tests.
type outcome struct {
	passed bool   // exit status 0 and, for Go, every expected test passed
	text   string // the output; for Go, the text inside the JSON events
}

// runOverlay copies repo/ with the folder sub overlaid ("" for none) to a
// temporary folder and runs the task's test command there.
func runOverlay(t *testing.T, tk tasks.Task, sub, gocache string) outcome {
	t.Helper()
	dir := t.TempDir()
	if err := tk.CopyDir("repo", dir); err != nil {
		t.Fatal(err)
	}
	if sub != "" {
		if err := tk.CopyDir(sub, dir); err != nil {
			t.Fatal(err)
		}
	}
	limit := tk.Timeout
	if tk.Framework == tasks.FrameworkGo {
		limit = max(limit, 10*time.Minute) // a cold build cache
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, tk.TestCmd[0], tk.TestCmd[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), testrun.GoEnv(gocache, t.TempDir())...), "PYTHONDONTWRITEBYTECODE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s timed out after %v", tk.Name, sub, time.Since(start))
	}
	if tk.Framework != tasks.FrameworkGo {
		return outcome{passed: err == nil, text: out.String()}
	}
	r := gojson.Parse(out.String(), tk.Tests)
	return outcome{passed: err == nil && len(r.Failed) == 0 && r.Total == len(tk.Tests), text: r.Text}
}
