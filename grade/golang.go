package grade

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"bench/tasks"
)

// isGo reports whether t is graded as a Go task.
func isGo(t tasks.Task) bool { return t.Framework == tasks.FrameworkGo }

// goTestPath reports whether the workspace path rel is a Go test file or
// test data: a *_test.go file, or a file under a testdata/ folder.
func goTestPath(rel string) bool {
	return strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/")
}

// goModuleFile reports whether name is a file that decides how Go
// resolves the module (go.mod, go.sum, go.work): graded as the task has
// it, never as the track left it.
func goModuleFile(name string) bool {
	return name == "go.mod" || name == "go.sum" || name == "go.work" || name == "go.work.sum"
}

// goLeaveOut says why the Go workspace file p (rel) is not carried into
// grading ("" to carry it): a module file that the track added or changed
// is graded as the task has it.
func goLeaveOut(t tasks.Task, p, rel string, d fs.DirEntry) string {
	if d.IsDir() || !goModuleFile(d.Name()) {
		return ""
	}
	want, err := fs.ReadFile(t.FS, path.Join(tasks.Repo, rel))
	if err != nil {
		return "is a Go module file the track added; graded without it"
	}
	if got, err := readRegular(p); err == nil && bytes.Equal(got, want) {
		return ""
	}
	return "is a Go module file the track changed; graded with the pristine copy"
}

// removeExtraGoTests deletes every Go test file and test data file that the
// track added (a *_test.go file or a file under testdata/ that the task's
// repo/ does not hold), anywhere in dir, and returns their paths,
// slash-separated and sorted. Grading runs the pristine tests only, as for
// the Python test modules a track adds. Links are removed, never followed.
func removeExtraGoTests(t tasks.Task, dir string) ([]string, error) {
	var extra []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !goTestPath(rel) {
			return nil
		}
		if _, err := fs.Stat(t.FS, path.Join(tasks.Repo, rel)); err == nil {
			return nil
		}
		extra = append(extra, rel)
		return os.Remove(p)
	})
	if err != nil {
		return extra, fmt.Errorf("removing Go test files the track added: %w", err)
	}
	return extra, nil // WalkDir visits in lexical order
}
