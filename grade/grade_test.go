package grade

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// task returns the embedded course task name.
func task(t *testing.T, name string) tasks.Task { return fixture.CourseTask(t, name) }

// workspace returns a fresh copy of the task's repo/, as a track gets it.
func workspace(t *testing.T, tk tasks.Task) string {
	t.Helper()
	dir := t.TempDir()
	if err := tk.CopyDir("repo", dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// overlay copies the task's sub folder (solution/, partial/) over dir.
func overlay(tk tasks.Task, dir, sub string) error { return tk.CopyDir(sub, dir) }

func TestGradeOriginalAndSolution(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "parse_date")
	dir := workspace(t, tk)
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Passed || g.TestsPassed != 3 || g.TestsTotal != 7 || g.Tampered {
		t.Errorf("original: %+v", g)
	}
	if want := "test_any_case_and_spaces,test_first_month,test_month_name,test_short_month_name"; strings.Join(g.Failed, ",") != want {
		t.Errorf("failed = %v, want %s", g.Failed, want)
	}
	if !strings.Contains(g.Result.Output, "ValueError: invalid literal for int() with base 10: '5,'") {
		t.Errorf("the first bug does not raise as designed:\n%s", g.Result.Output)
	}
	if err := overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	g, err = Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Passed || g.TestsPassed != 7 || g.TestsTotal != 7 || len(g.Failed) != 0 {
		t.Errorf("solution: %+v", g)
	}
}

func TestGradePartialParseDate(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "parse_date")
	dir := workspace(t, tk)
	if err := overlay(tk, dir, "partial"); err != nil {
		t.Fatal(err)
	}
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Passed || !strings.Contains(g.Result.Output, "datetime.date(2024, 2, 5) != datetime.date(2024, 3, 5)") {
		t.Errorf("partial: passed=%v\n%s", g.Passed, g.Result.Output)
	}
}

func TestGradeTamperedTestFile(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "leap_year")
	dir := workspace(t, tk)
	// The "fix" a cheating track might write: tests that always pass.
	fake := "import unittest\n\nclass LeapTest(unittest.TestCase):\n    def test_ordinary_year(self):\n        pass\n"
	if err := os.WriteFile(filepath.Join(dir, "test_leap.py"), []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Tampered {
		t.Error("a rewritten test file was not flagged")
	}
	if g.Passed || g.TestsTotal != 6 || g.TestsPassed != 3 {
		t.Errorf("graded with the tampered tests: %+v", g)
	}
	pristine, _ := fs.ReadFile(tk.FS, "repo/test_leap.py")
	if got, _ := os.ReadFile(filepath.Join(dir, "test_leap.py")); string(got) != string(pristine) {
		t.Error("the test file was not restored")
	}
	// Graded again, the restored file is not tampering.
	if g, _ := Grade(context.Background(), tk, dir); g.Tampered {
		t.Error("a pristine test file was flagged")
	}
}

func TestGradeDeletedAndSymlinkedTestFile(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "word_freq")
	dir := workspace(t, tk)
	os.Remove(filepath.Join(dir, "test_word_freq.py"))
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Tampered || g.TestsTotal != 6 {
		t.Errorf("deleted test file: %+v", g)
	}

	outside := filepath.Join(t.TempDir(), "outside.py")
	os.WriteFile(outside, []byte("keep me\n"), 0o644)
	os.Remove(filepath.Join(dir, "test_word_freq.py"))
	if err := os.Symlink(outside, filepath.Join(dir, "test_word_freq.py")); err != nil {
		fixture.Lacks(t, fmt.Sprint("no symlinks: ", err))
	}
	g, err = Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Tampered {
		t.Error("a symlinked test file was not flagged")
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep me\n" {
		t.Error("restoring followed the symlink and wrote outside the workspace")
	}
	if info, _ := os.Lstat(filepath.Join(dir, "test_word_freq.py")); info.Mode()&fs.ModeSymlink != 0 {
		t.Error("the symlink is still there")
	}
}

func TestGradeImportFailureCountsEveryTest(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "leap_year")
	for name, src := range map[string]string{
		"syntax error": "def is_leap(year)\n    return True\n",
		"import error": "from calendar_helpers import is_leap\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := workspace(t, tk)
			if err := os.WriteFile(filepath.Join(dir, "leap.py"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := Grade(context.Background(), tk, dir)
			if err != nil {
				t.Fatal(err)
			}
			if g.Passed || g.TestsPassed != 0 || g.TestsTotal != 6 || len(g.Failed) != 6 || !g.Result.LoadError {
				t.Errorf("%+v", g)
			}
		})
	}
}

func TestSlugifyFunctionOnlyReply(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "slugify")
	dir := workspace(t, tk)
	snippet := "def slugify(text, sep=\"-\"):\n    words = re.findall(r\"[a-z0-9]+\", text.lower())\n    return sep.join(words)\n"
	if err := os.WriteFile(filepath.Join(dir, "slugify.py"), []byte(snippet), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Passed || g.TestsPassed != 0 || !strings.Contains(g.Result.Output, "NameError: name 're' is not defined") {
		t.Errorf("passed %d/%d\n%s", g.TestsPassed, g.TestsTotal, g.Result.Output)
	}
}

// TestGradeShadowedHarness: a unittest.py written into the workspace root
// would be imported instead of the standard library's and could fake a pass.
func TestGradeShadowedHarness(t *testing.T) {
	fixture.ParallelPython(t)
	tk := task(t, "leap_year")
	dir := workspace(t, tk)
	fake := "import sys\nprint('Ran 6 tests in 0.001s\\n\\nOK')\nsys.exit(0)\n"
	if err := os.WriteFile(filepath.Join(dir, "unittest.py"), []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Tampered {
		t.Error("a unittest.py shadowing the harness was not flagged")
	}
	if g.Passed || g.TestsPassed != 3 {
		t.Errorf("graded through the fake harness: passed=%v %d/%d", g.Passed, g.TestsPassed, g.TestsTotal)
	}
	if _, err := os.Stat(filepath.Join(dir, "unittest.py")); err == nil {
		t.Error("the shadowing file was left in place")
	}
}

// TestGradeIgnoresTestModulesTheTrackAdded: with a test command that
// discovers tests, an agent's own test file, failing or passing, neither
// fails nor counts towards the task; it is removed and named in Extra, and
// is not tampering. (The course tasks name their test module, so discovery
// only matters for tasks of --tasks-dir.)
func TestGradeIgnoresTestModulesTheTrackAdded(t *testing.T) {
	fixture.ParallelPython(t)
	tk := tasks.Task{
		Name: "calc", TestCmd: []string{"python3", "-m", "unittest", "-v"}, Timeout: 10 * time.Second,
		Source: "calc.py", TestFiles: []string{"test_calc.py"}, Tests: []string{"test_add"},
		FS: fstest.MapFS{
			"repo/calc.py":      {Data: []byte("def add(a, b):\n    return a + b\n")},
			"repo/test_calc.py": {Data: []byte("import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n")},
		},
	}
	dir := workspace(t, tk)
	scratch := "import unittest\n\nclass Scratch(unittest.TestCase):\n    def test_wrong_guess(self):\n        self.assertEqual(1, 2)\n"
	os.MkdirAll(filepath.Join(dir, "pkg"), 0o755)
	os.WriteFile(filepath.Join(dir, "pkg", "__init__.py"), nil, 0o644)
	for _, name := range []string{"test_mine.py", "pkg/test_more.py"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(scratch), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := Grade(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Passed || g.TestsTotal != 1 || g.Tampered {
		t.Errorf("passed=%v %d/%d tampered=%v failed=%v", g.Passed, g.TestsPassed, g.TestsTotal, g.Tampered, g.Failed)
	}
	if strings.Join(g.Extra, ",") != "pkg/test_more.py,test_mine.py" {
		t.Errorf("extra = %v", g.Extra)
	}
}

// TestGradeRunsNoSiteHooks: grading starts Python without its site hooks
// (.pth files run code at every start: on this machine one imports
// certifi and a dozen modules, half a test run's CPU), yet with the
// builtins site adds (exit, quit) and the path it makes: the
// interpreter's site-packages folders, after the workspace.
func TestGradeRunsNoSiteHooks(t *testing.T) {
	fixture.ParallelPython(t)
	test := `import os, site, sys, unittest

class T(unittest.TestCase):
    def test_no_site_hooks(self):
        self.assertEqual(sys.flags.no_site, 1)

    def test_exit_and_quit_are_builtins(self):
        with self.assertRaises(SystemExit):
            exit(3)
        with self.assertRaises(SystemExit):
            quit()

    def test_site_packages_after_the_workspace(self):
        ws = sys.path.index(os.getcwd())
        for d in site.getsitepackages():
            if os.path.isdir(d):
                self.assertGreater(sys.path.index(d), ws, d)
`
	tk := tasks.Task{
		Name: "site", TestCmd: []string{"python3", "-m", "unittest", "-v", "test_site"}, Timeout: 10 * time.Second,
		Source: "site_flags.py", TestFiles: []string{"test_site.py"},
		Tests: []string{"test_no_site_hooks", "test_exit_and_quit_are_builtins", "test_site_packages_after_the_workspace"},
		FS: fstest.MapFS{
			"repo/site_flags.py": {Data: []byte("")},
			"repo/test_site.py":  {Data: []byte(test)},
		},
	}
	g, err := Grade(context.Background(), tk, workspace(t, tk))
	if err != nil {
		t.Fatal(err)
	}
	if !g.Passed {
		t.Errorf("graded %d/%d, failed %v:\n%s", g.TestsPassed, g.TestsTotal, g.Failed, g.Result.Output)
	}
}

// TestSortedOnce: the failed tests of every grading, whatever language and
// order the test runner reported them in, are listed sorted and each once,
// and an empty list is empty, not null, in the episode's line.
func TestSortedOnce(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{nil, []string{}},
		{[]string{"TestB", "TestA", "TestB"}, []string{"TestA", "TestB"}},
		{[]string{"test_z (m.T)", "test_a (m.T)", "test_z (m.T)", "test_a (m.T)"}, []string{"test_a (m.T)", "test_z (m.T)"}},
	} {
		got := sortedOnce(slices.Clone(c.in))
		if got == nil || !slices.Equal(got, c.want) {
			t.Errorf("sortedOnce(%q) = %#v, want %q", c.in, got, c.want)
		}
	}
}
