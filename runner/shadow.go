package runner

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
// does not itself hold, and reports whether it found one.
func removeShadows(t tasks.Task, dir string) (found bool, err error) {
	for _, name := range shadowNames {
		if _, err := fs.Stat(t.FS, path.Join("repo", name)); err == nil {
			continue
		}
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		found = true
		if err := os.RemoveAll(p); err != nil {
			return found, fmt.Errorf("removing %s, which would shadow the test harness: %w", name, err)
		}
	}
	return found, nil
}
