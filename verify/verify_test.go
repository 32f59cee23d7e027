package verify

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// TestVerifySuite runs the oracle check of every task of the suite, Python
// and Go: each original fails, each partial/ fails with partial_expect in
// its output, each solution passes.
func TestVerifySuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every task of the suite")
	}
	fixture.ParallelPython(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	var goTasks int
	for i, v := range All(context.Background(), all, Cache{}) {
		tk := all[i]
		if tk.Framework == tasks.FrameworkGo {
			goTasks++
		}
		checkVerified(t, tk, v)
	}
	if goTasks == 0 {
		t.Error("the suite has no Go task to verify")
	}
}

// checkVerified fails t unless v, the verification of tk, passed every
// check it must make: three, and a fourth for a task with partial_expect.
func checkVerified(t *testing.T, tk tasks.Task, v Verification) {
	t.Helper()
	if !v.OK() {
		t.Errorf("%s: %+v", tk.Name, v.Checks)
	}
	want := 3
	if tk.PartialExpect != "" {
		want = 4
	}
	if len(v.Checks) != want {
		t.Errorf("%s: %d checks, want %d", tk.Name, len(v.Checks), want)
	}
}

// looseTask is a task whose code under test returns an object equal to
// any text: honest, but a control expecting a value no implementation
// returns passes with it, so grading cannot tell its results from a fake's.
var looseTask = fstest.MapFS{
	"loose/task.toml": {Data: []byte(`name = "loose"
title = "An answer equal to anything"
instruction = "Make the tests pass."
test_cmd = ["python3", "-m", "unittest", "-v", "test_loose"]
source = "loose.py"
test_files = ["test_loose.py"]
timeout = "30s"
archetype = "control"
answers = [true, true, true]
`)},
	"loose/repo/loose.py":      {Data: []byte("class Any:\n    def __eq__(self, other):\n        return isinstance(other, str)\n\n\ndef answer():\n    return Any()\n\n\ndef broken():\n    return 1\n")},
	"loose/repo/test_loose.py": {Data: []byte("import unittest\n\nfrom loose import answer, broken\n\n\nclass LooseTest(unittest.TestCase):\n    def test_answer(self):\n        self.assertEqual(answer(), \"forty-two\")\n\n    def test_broken(self):\n        self.assertEqual(broken(), 2)\n")},
	"loose/solution/loose.py":  {Data: []byte("class Any:\n    def __eq__(self, other):\n        return isinstance(other, str)\n\n\ndef answer():\n    return Any()\n\n\ndef broken():\n    return 2\n")},
}

// TestVerifyRefusesATaskGradingCannotCheck: the oracle check fails a task
// whose own code grading flags as tampering, and says why.
func TestVerifyRefusesATaskGradingCannotCheck(t *testing.T) {
	fixture.ParallelPython(t)
	v := Task(context.Background(), fixture.LoadTask(t, looseTask, "loose"))
	if v.OK() {
		t.Fatalf("the loose task passed its oracle check: %+v", v.Checks)
	}
	for _, c := range v.Checks {
		if c.Name == CheckOriginal && (c.OK || !strings.Contains(c.Detail, "flagged the task's own code") || !strings.Contains(c.Detail, "control-passed")) {
			t.Errorf("%s: ok %v, %s", c.Name, c.OK, c.Detail)
		}
	}
}

// brokenTask is a copy of leap_year whose solution/ is the original bug.
func brokenTask(t *testing.T) tasks.Task {
	t.Helper()
	tk := fixture.CourseTask(t, "leap_year")
	m := fstest.MapFS{}
	fs.WalkDir(tk.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(tk.FS, p)
			m[p] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	m["solution/leap.py"] = m["repo/leap.py"]
	tk.FS = m
	return tk
}

// brokenRun is the one oracle check of brokenTask, through All with a
// fresh cache, that TestVerifyBrokenSolution and
// TestVerifyCacheTakesOnlyPassesOfTheTask both read: its verification and
// how many entries it left in the cache. done is set only when the check
// ran whole, so a failure inside it fails both tests.
var brokenRun struct {
	once    sync.Once
	done    bool
	v       Verification
	entries int
}

// brokenVerified returns brokenRun, running it on the first call.
func brokenVerified(t *testing.T) (Verification, int) {
	t.Helper()
	brokenRun.once.Do(func() {
		dir, err := os.MkdirTemp("", "bench-verify-cache-*")
		if err != nil {
			t.Error(err)
			return
		}
		defer os.RemoveAll(dir)
		brokenRun.v = All(context.Background(), []tasks.Task{brokenTask(t)}, Cache{Dir: dir})[0]
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Error(err)
			return
		}
		brokenRun.entries, brokenRun.done = len(entries), true
	})
	if !brokenRun.done {
		t.Fatal("the shared oracle check of brokenTask did not run whole")
	}
	return brokenRun.v, brokenRun.entries
}

func TestVerifyBrokenSolution(t *testing.T) {
	fixture.ParallelPython(t)
	v, _ := brokenVerified(t)
	if v.OK() {
		t.Fatal("a task whose solution fails verified")
	}
	for _, c := range v.Checks {
		if c.Name == CheckSolution && (c.OK || !strings.Contains(c.Detail, "3/6 passed") || !strings.Contains(c.Detail, "test_divisible_by_four_hundred")) {
			t.Errorf("solution check: %+v", c)
		}
		if c.Name == CheckOriginal && !c.OK {
			t.Errorf("original check: %+v", c)
		}
	}
}

// driftFS is a fake task folder whose README changes every time it is read,
// standing in for a task folder modified during the check.
type driftFS struct {
	fstest.MapFS
	reads *int
}

func (d driftFS) Open(name string) (fs.File, error) {
	if name == "NOTES.md" {
		*d.reads++
		d.MapFS[name] = &fstest.MapFile{Data: []byte(strings.Repeat("x", *d.reads))}
	}
	return d.MapFS.Open(name)
}

func (d driftFS) ReadFile(name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func TestVerifyNoticesAChangedFolder(t *testing.T) {
	fixture.ParallelPython(t)
	tk := fixture.CourseTask(t, "leap_year")
	m := fstest.MapFS{"NOTES.md": {Data: []byte("x")}}
	fs.WalkDir(tk.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(tk.FS, p)
			m[p] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	tk.FS = driftFS{m, new(int)}
	v := Task(context.Background(), tk)
	last := v.Checks[len(v.Checks)-1]
	if last.Name != CheckUnchanged || last.OK || v.OK() {
		t.Errorf("a changed folder passed: %+v", v.Checks)
	}
}
