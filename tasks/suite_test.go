package tasks

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/testrun/gojson"
)

// TestSuiteDesign checks the suite against issue 12: at least 16 tasks, 4 in
// Go, 3 controls, each question answered "no" by at least two tasks, and a
// partial/ for every task that is not a control.
func TestSuiteDesign(t *testing.T) {
	all, err := Load(Suite())
	if err != nil {
		t.Fatal(err)
	}
	var goTasks, controls, partials int
	var no [3]int
	for _, tk := range all {
		if tk.Framework == FrameworkGo {
			goTasks++
		}
		if tk.Control() {
			controls++
		} else if tk.PartialExpect == "" {
			t.Errorf("%s (%s) is not a control but has no partial/", tk.Name, tk.Answers)
		}
		if tk.PartialExpect != "" {
			partials++
		}
		for i, yes := range tk.Answers.List() {
			if !yes {
				no[i]++
			}
		}
	}
	if len(all) < 16 || goTasks < 4 || controls < 3 || partials < 8 {
		t.Errorf("%d tasks (want 16+), %d in Go (4+), %d controls (3+), %d with partial/ (8+)", len(all), goTasks, controls, partials)
	}
	for i, n := range no {
		if n < 2 {
			t.Errorf("question %d is answered no by %d tasks, want at least 2", i+1, n)
		}
	}
	course, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range course {
		if !slices.ContainsFunc(all, func(s Task) bool { return s.Name == c.Name }) {
			t.Errorf("course task %s is missing from the suite", c.Name)
		}
	}
}

// TestGoTasksHiddenFromBench checks that no Go task folder on disk holds a
// go.mod or a .go file under its real name: bench's own "go vet ./..." would
// compile the broken code, and go:embed would leave out a folder with go.mod.
func TestGoTasksHiddenFromBench(t *testing.T) {
	err := fs.WalkDir(os.DirFS("."), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "/") {
			return err
		}
		if goEligible(d.Name()) && !strings.HasPrefix(d.Name(), "_") {
			t.Errorf("%s: store it as %s", p, path.Join(path.Dir(p), "_"+d.Name()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSuiteVerifies runs every task of the suite for real, in temporary
// copies: repo/ fails, repo/ + partial/ fails with partial_expect in its
// output, repo/ + solution/ passes every test, and the folder is unchanged.
func TestSuiteVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every task's tests")
	}
	all, err := Load(Suite())
	if err != nil {
		t.Fatal(err)
	}
	// One Go build cache for every run, kept between test runs under the
	// temporary folder: a cold cache compiles the standard library first,
	// which takes minutes on a busy machine.
	gocache := filepath.Join(os.TempDir(), "bench-tasks-gocache")
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
func runOverlay(t *testing.T, tk Task, sub, gocache string) outcome {
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
	if tk.Framework == FrameworkGo {
		limit = max(limit, 10*time.Minute) // a cold build cache
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, tk.TestCmd[0], tk.TestCmd[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOCACHE="+gocache, "PYTHONDONTWRITEBYTECODE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s timed out after %v", tk.Name, sub, time.Since(start))
	}
	if tk.Framework != FrameworkGo {
		return outcome{passed: err == nil, text: out.String()}
	}
	r := gojson.Parse(out.String(), tk.Tests)
	return outcome{passed: err == nil && len(r.Failed) == 0 && r.Total == len(tk.Tests), text: r.Text}
}
