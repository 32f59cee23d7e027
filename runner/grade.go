package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"bench/tasks"
	"bench/testrun"
)

// GradeResult is the verdict on a workspace after a track has run.
//
// (The agreed API called this type Grade; Go does not allow a type and the
// function Grade in one package, so the function keeps the name.)
type GradeResult struct {
	Passed      bool
	TestsPassed int
	TestsTotal  int
	Failed      []string // test method names that failed, errored or never ran
	Tampered    bool     // a protected test file had been changed or deleted, or a harness module shadowed
	Extra       []string // test modules the track added, removed before the run (not tampering)
	Result      testrun.Result
}

// Grade restores the task's protected test files in dir from the task
// folder, removes the test modules the track added (see removeExtraTests),
// runs the test command and reads the verdict. A test module that
// could not be imported counts every test of the task as failed, not as zero
// tests. The error is non-nil only when the tests could not be run at all
// (or ctx was cancelled).
func Grade(ctx context.Context, t tasks.Task, dir string) (GradeResult, error) {
	var g GradeResult
	for _, f := range t.TestFiles {
		changed, err := restore(t, dir, f)
		if err != nil {
			return g, err
		}
		g.Tampered = g.Tampered || changed
	}
	shadowed, err := removeShadows(t, dir)
	if err != nil {
		return g, err
	}
	g.Tampered = g.Tampered || shadowed
	if g.Extra, err = removeExtraTests(t, dir); err != nil {
		return g, err
	}
	res, err := testrun.Run(ctx, dir, t.TestCmd, t.Timeout)
	g.Result = res
	if err != nil {
		return g, err
	}
	g.TestsTotal = max(res.Total, len(t.Tests))
	g.TestsPassed = min(res.Passed, g.TestsTotal)
	g.Failed = res.Failed
	if res.LoadError || res.Total < len(t.Tests) {
		g.Failed = notPassed(t.Tests, res.Cases)
	}
	g.Passed = res.ExitCode == 0 && !res.TimedOut && !res.LoadError &&
		g.TestsTotal > 0 && g.TestsPassed == g.TestsTotal
	return g, nil
}

// notPassed returns the tests of names that no case shows as passing.
func notPassed(names []string, cases []testrun.Case) []string {
	passed := map[string]bool{}
	for _, c := range cases {
		if c.Outcome == testrun.OK || c.Outcome == testrun.Skipped || c.Outcome == testrun.ExpectedFailure {
			passed[testrun.MethodName(c.Name)] = true
		}
	}
	var out []string
	for _, n := range names {
		if !passed[n] {
			out = append(out, n)
		}
	}
	return out
}

// restore writes the pristine copy of the test file name (relative to
// repo/) into dir and reports whether the workspace's copy differed or was
// missing. Whatever stands at that path (a symlink, a folder) is removed
// first, and so is a symlink or file in place of one of its folders, so a
// track cannot redirect the write outside the workspace.
func restore(t tasks.Task, dir, name string) (changed bool, err error) {
	want, err := fs.ReadFile(t.FS, path.Join("repo", name))
	if err != nil {
		return false, fmt.Errorf("reading the pristine %s of task %s: %w", name, t.Name, err)
	}
	changed, err = clearFolders(dir, name)
	if err != nil {
		return changed, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	dst := filepath.Join(dir, filepath.FromSlash(name))
	info, err := os.Lstat(dst)
	switch {
	case changed:
	case err == nil && info.Mode().IsRegular():
		got, err := os.ReadFile(dst)
		if err == nil && bytes.Equal(got, want) {
			return false, nil
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("checking test file %s: %w", name, err)
	}
	if err := os.RemoveAll(dst); err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	_, err = f.Write(want)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	return true, nil
}

// clearFolders makes sure that every folder on the way to name (relative to
// dir, slash-separated) is a real folder or absent: a symlink or a file in
// the place of one is removed (RemoveAll never follows a link), and the
// result says whether one was. Without this, writing dir/name could follow
// a link out of the workspace.
func clearFolders(dir, name string) (bool, error) {
	p := dir
	parts := strings.Split(path.Dir(name), "/")
	for _, part := range parts {
		if part == "." {
			break
		}
		p = filepath.Join(p, part)
		info, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return false, nil
		case err != nil:
			return false, err
		case info.IsDir():
			continue
		}
		return true, os.RemoveAll(p)
	}
	return false, nil
}
