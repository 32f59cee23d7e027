package tracktest

import (
	"io/fs"
	"os/exec"
	"testing"

	"github.com/otiai10/copy"

	"bench/model"
	"bench/tasks"
	"bench/track"
)

// CourseTask returns the embedded course task name.
func CourseTask(t testing.TB, name string) tasks.Task {
	t.Helper()
	return LoadTask(t, tasks.Embedded(), name)
}

// SuiteTask returns the task name of the whole built-in suite.
func SuiteTask(t testing.TB, name string) tasks.Task {
	t.Helper()
	return LoadTask(t, tasks.Suite(), name)
}

// LoadTask loads the tasks of fsys and returns the one called name.
func LoadTask(t testing.TB, fsys fs.FS, name string) tasks.Task {
	t.Helper()
	all, err := tasks.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := tasks.Select(all, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	return sel[0]
}

// Fixture copies the repo/ of an embedded course task into a fresh temp
// workspace and returns an episode environment on it, recording into a
// FakeRecorder. (scratch.New makes the same copy for an episode; here the
// test's own temp dir holds it, so the testing package removes it.)
func Fixture(t testing.TB, name string, chat model.Chatter) (*track.Env, *FakeRecorder) {
	t.Helper()
	task := CourseTask(t, name)
	dir := t.TempDir()
	if err := copy.Copy("repo", dir, copy.Options{FS: task.FS, PermissionControl: copy.AddPermission(0o200)}); err != nil {
		t.Fatal(err)
	}
	rec := &FakeRecorder{}
	return &track.Env{Task: task, Dir: dir, Model: chat, Options: model.Options{Seed: 1, NumCtx: 8192}, Rec: rec}, rec
}

// ReadOverlay returns a file of the task's solution/ (or partial/) overlay.
func ReadOverlay(t testing.TB, env *track.Env, sub, file string) string {
	t.Helper()
	b, err := fs.ReadFile(env.Task.FS, sub+"/"+file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// NeedPython skips a test on a machine without python3, and lets the tests
// that run Python run in parallel.
func NeedPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	t.Parallel()
}

// FakeLeapTests is a test module for leap_year whose six tests always pass:
// what model-written code plants to fake a pass.
const FakeLeapTests = `import unittest


class LeapTest(unittest.TestCase):
    def test_ordinary_year(self): pass
    def test_divisible_by_four(self): pass
    def test_century(self): pass
    def test_divisible_by_four_hundred(self): pass
    def test_far_future(self): pass
    def test_days_in_year(self): pass
`
