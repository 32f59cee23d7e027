package runner

import (
	"context"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"bench/scratch"
	"bench/tasks"
	"bench/track/tracktest"
)

// task returns the embedded course task name.
func task(t *testing.T, name string) tasks.Task { return tracktest.CourseTask(t, name) }

// workspace returns a fresh copy of the task, removed after the test.
func workspace(t *testing.T, tk tasks.Task) string {
	t.Helper()
	w, err := scratch.New(tk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Remove() })
	return w.Dir
}

// TestVerifyCourseTasks runs the oracle check of the four course tasks,
// the short-mode twin of TestVerifySuite.
func TestVerifyCourseTasks(t *testing.T) {
	tracktest.NeedPython(t)
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		checkVerified(t, tk, Verify(context.Background(), tk))
	}
}

// brokenTask is a copy of leap_year whose solution/ is the original bug.
func brokenTask(t *testing.T) tasks.Task {
	t.Helper()
	tk := task(t, "leap_year")
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

func TestVerifyBrokenSolution(t *testing.T) {
	tracktest.NeedPython(t)
	v := Verify(context.Background(), brokenTask(t))
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
	tracktest.NeedPython(t)
	tk := task(t, "leap_year")
	m := fstest.MapFS{"NOTES.md": {Data: []byte("x")}}
	fs.WalkDir(tk.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(tk.FS, p)
			m[p] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	tk.FS = driftFS{m, new(int)}
	v := Verify(context.Background(), tk)
	last := v.Checks[len(v.Checks)-1]
	if last.Name != CheckUnchanged || last.OK || v.OK() {
		t.Errorf("a changed folder passed: %+v", v.Checks)
	}
}
