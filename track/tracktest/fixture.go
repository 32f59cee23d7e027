package tracktest

import (
	"io/fs"
	"testing"

	"github.com/otiai10/copy"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/tasks"
	"bench/track"
)

// CourseTask returns the embedded course task name (fixture.CourseTask).
func CourseTask(t testing.TB, name string) tasks.Task {
	t.Helper()
	return fixture.CourseTask(t, name)
}

// SuiteTask returns the task name of the whole built-in suite
// (fixture.SuiteTask).
func SuiteTask(t testing.TB, name string) tasks.Task {
	t.Helper()
	return fixture.SuiteTask(t, name)
}

// LoadTask loads the tasks of fsys and returns the one called name
// (fixture.LoadTask).
func LoadTask(t testing.TB, fsys fs.FS, name string) tasks.Task {
	t.Helper()
	return fixture.LoadTask(t, fsys, name)
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
// that run Python run in parallel (fixture.ParallelPython).
func NeedPython(t *testing.T) {
	t.Helper()
	fixture.ParallelPython(t)
}

// FakeLeapTests is a test module for leap_year whose six tests always pass
// (fixture.FakeLeapTests).
const FakeLeapTests = fixture.FakeLeapTests
