package grade

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"bench/tasks"
)

// shadowNames are workspace-root entries that Python imports ahead of the
// standard library when the test command runs from the root: a model could
// write one to fake a passing run without touching a test file.
var shadowNames = []string{"sitecustomize.py", "unittest", "unittest.py", "usercustomize.py"}

// removeShadows deletes any shadowNames entry in dir that the task's repo/
// does not itself hold, and returns the names it deleted.
func removeShadows(t tasks.Task, dir string) (found []string, err error) {
	for _, name := range shadowNames {
		if _, err := fs.Stat(t.FS, path.Join(tasks.Repo, name)); err == nil {
			continue
		}
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		found = append(found, name)
		if err := os.RemoveAll(p); err != nil {
			return found, fmt.Errorf("removing %s, which would shadow the test harness: %w", name, err)
		}
	}
	return found, nil
}

// removeExtraTests deletes every test module that the track added: a file
// named test*.py (the modules unittest discovery imports), anywhere in dir,
// that the task's repo/ does not hold. Grading runs the pristine tests only:
// an agent's own scratch test that fails must not fail the task, and one
// that passes must not count. It returns the removed paths, slash-separated
// and sorted. Symbolic links are removed, never followed.
func removeExtraTests(t tasks.Task, dir string) ([]string, error) {
	var extra []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if ok, _ := path.Match("test*.py", d.Name()); !ok {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if _, err := fs.Stat(t.FS, path.Join(tasks.Repo, rel)); err == nil {
			return nil
		}
		extra = append(extra, rel)
		return os.Remove(p)
	})
	if err != nil {
		return extra, fmt.Errorf("removing test modules the track added: %w", err)
	}
	return extra, nil // WalkDir visits in lexical order
}
