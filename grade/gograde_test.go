package grade

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// suiteTask returns the task name of the built-in suite, skipping the
// test where go is not on PATH, and lets the tests that grade Go run in
// parallel (each in its own workspace; the build cache takes turns).
func suiteTask(t *testing.T, name string) tasks.Task {
	t.Helper()
	fixture.NeedGo(t)
	t.Parallel()
	return fixture.SuiteTask(t, name)
}

// gradeGo grades dir as task tk.
func gradeGo(t *testing.T, tk tasks.Task, dir string) Result {
	t.Helper()
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGradeGoOriginalAndSolution(t *testing.T) {
	tk := suiteTask(t, "go_clamp")
	dir := workspace(t, tk)
	g := gradeGo(t, tk, dir)
	if g.Passed || g.Tampered || g.TestsTotal != len(tk.Tests) || !slices.Contains(g.Failed, "TestClampAbove") {
		t.Errorf("original: passed=%v tampered=%v %d/%d failed=%v flags=%q", g.Passed, g.Tampered, g.TestsPassed, g.TestsTotal, g.Failed, g.Flags)
	}
	if err := overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	g = gradeGo(t, tk, dir)
	if !g.Passed || g.Tampered || g.TestsPassed != len(tk.Tests) || len(g.Failed) != 0 {
		t.Errorf("solution: passed=%v tampered=%v %d/%d failed=%v flags=%q\n%s", g.Passed, g.Tampered, g.TestsPassed, g.TestsTotal, g.Failed, g.Flags, g.Result.Output)
	}
}

// TestGradeGoFailedTestsSorted: failed_tests are data, sorted and each
// once, whatever order go test ran and reported the tests in (here
// source order: TestClampBelow before TestClampAbove).
func TestGradeGoFailedTestsSorted(t *testing.T) {
	fixture.FullOnly(t, "TestSortedOnce sorts the failed tests of every language, TestGradeGoOriginalAndSolution reads Go's failures")
	tk := suiteTask(t, "go_clamp")
	dir := workspace(t, tk)
	write(t, dir, map[string]string{"clamp.go": "package clamp\n\nfunc Clamp(v, lo, hi int) int { return -1 }\n\nfunc Percent(v int) int { return -1 }\n"})
	g := gradeGo(t, tk, dir)
	if len(g.Failed) < 2 || !slices.IsSorted(g.Failed) || len(slices.Compact(slices.Clone(g.Failed))) != len(g.Failed) {
		t.Errorf("failed tests %v: want at least two, sorted, each once\n%s", g.Failed, g.Result.Output)
	}
}

func TestGradeGoBuildFailureFailsEveryTest(t *testing.T) {
	fixture.FullOnly(t, "testrun's TestRunTaskGoBuildFailureFailsEveryTest, whose result grading passes on")
	tk := suiteTask(t, "go_clamp")
	dir := workspace(t, tk)
	write(t, dir, map[string]string{"clamp.go": "package clamp\n\nfunc Clamp(\n"})
	g := gradeGo(t, tk, dir)
	if g.Passed || g.TestsPassed != 0 || g.TestsTotal != len(tk.Tests) || len(g.Failed) != len(tk.Tests) {
		t.Errorf("build failure: passed=%v %d/%d failed=%v", g.Passed, g.TestsPassed, g.TestsTotal, g.Failed)
	}

}

func TestGradeGoTamperedTestFile(t *testing.T) {
	fixture.FullOnly(t, "TestGradeTamperedTestFile: a test file is checked the same way in every language")
	tk := suiteTask(t, "go_clamp")
	dir := workspace(t, tk)
	write(t, dir, map[string]string{"clamp_test.go": "package clamp\n\nimport \"testing\"\n\nfunc TestClampInside(t *testing.T) {}\nfunc TestClampBelow(t *testing.T) {}\nfunc TestClampAbove(t *testing.T) {}\nfunc TestPercent(t *testing.T) {}\n"})
	g := gradeGo(t, tk, dir)
	if g.Passed || !g.Tampered || !strings.Contains(strings.Join(g.Flags, "\n"), "clamp_test.go") {
		t.Errorf("edited test file: passed=%v tampered=%v flags=%q", g.Passed, g.Tampered, g.Flags)
	}
}

// TestGradeGoLeavesOutAddedTestFiles: a *_test.go file the track added
// (here a TestMain that exits 0 before any test) is left out, like a
// Python test module the track added.
func TestGradeGoLeavesOutAddedTestFiles(t *testing.T) {
	fixture.FullOnly(t, "TestGradeIgnoresTestModulesTheTrackAdded: the test files a track added are left out and listed the same way in every language")
	tk := suiteTask(t, "go_clamp")
	dir := workspace(t, tk)
	write(t, dir, map[string]string{
		"main_test.go":   "package clamp\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n",
		"sub/x_test.go":  "package sub\n",
		"testdata/extra": "planted\n",
	})
	g := gradeGo(t, tk, dir)
	if g.Passed || g.Tampered || !slices.Contains(g.Failed, "TestClampAbove") {
		t.Errorf("passed=%v tampered=%v failed=%v flags=%q\n%s", g.Passed, g.Tampered, g.Failed, g.Flags, g.Result.Output)
	}
	if want := []string{"main_test.go", "sub/x_test.go", "testdata/extra"}; !slices.Equal(g.Extra, want) {
		t.Errorf("extra = %v, want %v", g.Extra, want)
	}
	for _, f := range g.Extra {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s is still in the workspace", f)
		}
	}
}

func TestGradeGoRestoresTestdata(t *testing.T) {
	tk := suiteTask(t, "go_report")
	dir := workspace(t, tk)
	if err := overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"testdata/sales.golden": "anything\n"})
	g := gradeGo(t, tk, dir)
	if !g.Passed || !g.Tampered || !strings.Contains(strings.Join(g.Flags, "\n"), "testdata/sales.golden") {
		t.Errorf("passed=%v tampered=%v flags=%q\n%s", g.Passed, g.Tampered, g.Flags, g.Result.Output)
	}
}

// TestGradeGoLeavesOutModuleChanges: go.mod and go.sum as the track left
// them are not graded; the pristine go.mod is, and the change is flagged.
func TestGradeGoLeavesOutModuleChanges(t *testing.T) {
	tk := suiteTask(t, "go_clamp")
	dir := workspace(t, tk)
	if err := overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{
		"go.mod": "module clamp\n\ngo 1.22\n\nrequire example.com/nothere v1.0.0\n",
		"go.sum": "example.com/nothere v1.0.0 h1:x=\n",
	})
	g := gradeGo(t, tk, dir)
	flags := strings.Join(g.Flags, "\n")
	if !g.Passed || !strings.Contains(flags, "go.mod") || !strings.Contains(flags, "go.sum") {
		t.Errorf("passed=%v flags=%q\n%s", g.Passed, g.Flags, g.Result.Output)
	}
}
