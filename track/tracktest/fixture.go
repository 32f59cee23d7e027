package tracktest

import (
	"io/fs"
	"testing"

	"bench/tasks"

	"github.com/otiai10/copy"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/track"
)

// Fixture copies the repo/ of an embedded course task into a fresh temp
// workspace and returns an episode environment on it, recording into a
// FakeRecorder. (scratch.New makes the same copy for an episode; here the
// test's own temp dir holds it, so the testing package removes it.)
func Fixture(t testing.TB, name string, chat model.Chatter) (*track.Env, *FakeRecorder) {
	t.Helper()
	task := fixture.CourseTask(t, name)
	dir := t.TempDir()
	if err := copy.Copy(tasks.Repo, dir, copy.Options{FS: task.FS, PermissionControl: copy.AddPermission(0o200)}); err != nil {
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
