// Package grade decides whether a track's workspace passes its task: it
// runs the task's pristine tests in a fresh, sealed copy of the workspace,
// inside the sandbox, through a grading runner of its own that reports a
// verdict only bench can sign.
package grade

import (
	"context"
	"errors"
	"os"
	"slices"

	"bench/tasks"
	"bench/testrun"
)

// Result is the verdict on a workspace after a track has run.
type Result struct {
	Passed      bool
	TestsPassed int
	TestsTotal  int
	Failed      []string // test method names that failed, errored or never ran, sorted, each once
	Tampered    bool     // a test file changed, a harness shadowed, bytecode planted, or the test run itself tampered with
	Extra       []string // test modules the track added, left out of grading (not tampering)
	Flags       []string // why Tampered, and what else was left out, one sentence each, sorted
	Reasons     []Reason // why Tampered: a code and a sentence each, sorted by code
	Refused     string   // why the workspace was not graded at all (over the workspace limit), or ""
	Result      testrun.Result
}

// Grade restores the task's protected test files in dir (the workspace is
// left as graded, for --keep), then grades a fresh copy: the task's
// pristine repo/ plus the files the track changed, leaving out test
// modules and packages, bytecode, and modules that shadow the standard
// library or the harness (see seal). The tests run with the grading
// runner (see run.go), in the sandbox testrun.DefaultSandbox returns. A test
// module that could not be imported counts every test of the task as
// failed, not as zero tests. The error is non-nil only when the tests
// could not be run at all (or ctx was cancelled).
func Grade(ctx context.Context, t tasks.Task, dir string) (Result, error) {
	return GradeWith(ctx, t, dir, Options{})
}

// Options are the settings of one grading; the zero value is the default.
type Options struct {
	// WorkspaceLimit is the most the workspace may hold and still be
	// graded (--workspace-limit, bytes; 0 = record.DefaultWorkspaceLimit). A
	// workspace over it is not copied: it fails, saying why.
	WorkspaceLimit int64
}

// GradeWith is Grade with opts: each grading carries its own settings, so
// runs in one process never share them.
func GradeWith(ctx context.Context, t tasks.Task, dir string, opts Options) (g Result, err error) {
	defer func() { g.Failed = sortedOnce(g.Failed) }() // however the verdict was reached: failed_tests are data
	testrun.HideAnswers(t)
	if why := overLimit(dir, opts.WorkspaceLimit); why != "" {
		g.Refused, g.TestsTotal, g.Failed = why, len(t.Tests), slices.Clone(t.Tests)
		return g, nil
	}
	if err := cleanInPlace(t, dir, &g); err != nil {
		return g, err
	}
	root, err := os.MkdirTemp("", "bench-grade-")
	if err != nil {
		return g, err
	}
	forget := testrun.Scratch(root) // a second Ctrl-C removes it too
	defer func() {
		os.RemoveAll(root)
		forget()
	}()
	ws, err := seal(ctx, t, dir, root, &g)
	if err != nil {
		return g, err
	}
	var res testrun.Result
	res, err = runSealed(ctx, t, ws, root, &g)
	g.Result = res
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// The caller's time ran out before the tests could run (the episode's limit).
		g.Result.TimedOut, g.Passed, err = true, false, nil
	}
	return g, err
}

// sortedOnce returns names sorted, each once; never nil.
func sortedOnce(names []string) []string {
	out := slices.Compact(slices.Sorted(slices.Values(names)))
	if out == nil {
		return []string{}
	}
	return out
}

// cleanInPlace restores the protected test files in the workspace and
// removes harness shadows and added test modules there (for Go, added
// *_test.go files and test data), as graded.
func cleanInPlace(t tasks.Task, dir string, g *Result) error {
	for _, f := range t.TestFiles {
		changed, err := restore(t, dir, f)
		if err != nil {
			return err
		}
		if changed {
			g.flag(ReasonTestFileChanged, "test file %s was changed, deleted or replaced; graded with the pristine copy", f)
		}
	}
	if isGo(t) {
		var err error
		g.Extra, err = removeExtraGoTests(t, dir)
		return err
	}
	shadowed, err := removeShadows(t, dir)
	if err != nil {
		return err
	}
	for _, name := range shadowed {
		g.flag(ReasonHarnessShadow, "%s would shadow the test harness; left out", name)
	}
	g.Extra, err = removeExtraTests(t, dir)
	return err
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
