// Package scratch makes the temporary copies of a task that code is run
// in: an episode's workspace and each copy an oracle check grades. A copy
// holds the task's repo/, optionally with its solution/ or partial/
// overlaid; until it is removed or kept, a second Ctrl-C removes it
// (testrun.Scratch).
package scratch

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"bench/tasks"
	"bench/testrun"
)

// Workspace is a temporary copy of a task's repo/ that one episode or one
// oracle check works in.
type Workspace struct {
	Dir    string // absolute, symlink-resolved path of the copy
	forget func() // ends its registration with testrun.Scratch
}

// New copies the task's repo/ into a fresh temporary directory. The
// caller removes it with Remove (or keeps it for inspection with Keep).
func New(t tasks.Task) (*Workspace, error) {
	dir, err := os.MkdirTemp("", "bench-"+t.Name+"-")
	if err != nil {
		return nil, fmt.Errorf("creating a workspace for %s: %w", t.Name, err)
	}
	// Resolve links (macOS: /var → /private/var) so that the paths Python
	// prints start with Dir.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	// Until it is removed or kept, a second Ctrl-C (testrun.KillAll) removes it.
	w := &Workspace{Dir: dir, forget: testrun.Scratch(dir)}
	if err := t.CopyDir(tasks.Repo, dir); err != nil {
		w.Remove()
		return nil, err
	}
	return w, nil
}

// Keep leaves the workspace in place for good: a second Ctrl-C no longer
// removes it.
func (w *Workspace) Keep() { w.release() }

// release ends the workspace's registration with testrun.Scratch.
func (w *Workspace) release() {
	if w != nil && w.forget != nil {
		w.forget()
	}
}

// Remove deletes the workspace and everything in it.
func (w *Workspace) Remove() error {
	if w == nil || w.Dir == "" {
		return nil
	}
	defer w.release()
	// A test may have made folders read-only; make them writable so that
	// RemoveAll can empty them.
	filepath.WalkDir(w.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(w.Dir)
}

// Overlay copies the task's sub folder ("solution" or "partial") over dir,
// replacing the files it holds and leaving the others.
func Overlay(t tasks.Task, dir, sub string) error {
	if sub != tasks.Solution && sub != tasks.Partial {
		return fmt.Errorf("overlay %q: expected \"solution\" or \"partial\"", sub)
	}
	if info, err := fs.Stat(t.FS, sub); err != nil || !info.IsDir() {
		return fmt.Errorf("task %s has no %s/ folder to overlay", t.Name, sub)
	}
	return t.CopyDir(sub, dir)
}
