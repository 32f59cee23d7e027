package workflow

import (
	"io/fs"
	"testing"

	"github.com/otiai10/copy"

	"bench/model"
	"bench/runner/track"
	"bench/tasks"
)

// fixture copies the repo/ of an embedded course task into a fresh temp
// workspace and returns an episode environment on it. (runner.NewWorkspace
// does the same, but runner imports this package.)
func fixture(t *testing.T, name string, chat model.Chatter) (*track.Env, *fakeRecorder) {
	t.Helper()
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	sel, err := tasks.Select(all, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	task := sel[0]
	dir := t.TempDir()
	if err := copy.Copy("repo", dir, copy.Options{FS: task.FS, PermissionControl: copy.AddPermission(0o200)}); err != nil {
		t.Fatal(err)
	}
	rec := &fakeRecorder{}
	return &track.Env{Task: task, Dir: dir, Model: chat, Options: model.Options{Seed: 1, NumCtx: 8192}, Rec: rec}, rec
}

// readOverlay returns a file of the task's solution/ (or partial/) overlay.
func readOverlay(t *testing.T, env *track.Env, sub, file string) string {
	t.Helper()
	b, err := fs.ReadFile(env.Task.FS, sub+"/"+file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
