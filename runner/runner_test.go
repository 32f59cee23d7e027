package runner

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"bench/tasks"
	"bench/track/tracktest"
)

// task returns the embedded course task name.
func task(t *testing.T, name string) tasks.Task { return tracktest.CourseTask(t, name) }

// workspace returns a fresh copy of the task, removed after the test.
func workspace(t *testing.T, tk tasks.Task) string {
	t.Helper()
	w, err := NewWorkspace(tk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Remove() })
	return w.Dir
}

func TestNewWorkspaceCopiesRepoOnly(t *testing.T) {
	tk := task(t, "parse_date")
	w, err := NewWorkspace(tk)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(w.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(w.Dir, p)
			got = append(got, rel)
			info, _ := d.Info()
			if info.Mode().Perm()&0o200 == 0 {
				t.Errorf("%s is not writable (mode %v)", rel, info.Mode())
			}
			want, _ := fs.ReadFile(tk.FS, "repo/"+filepath.ToSlash(rel))
			have, _ := os.ReadFile(p)
			if string(want) != string(have) {
				t.Errorf("%s differs from repo/", rel)
			}
		}
		return nil
	})
	if strings.Join(got, " ") != "README.md dateparse.py test_dateparse.py" {
		t.Errorf("workspace holds %v", got)
	}
	if !filepath.IsAbs(w.Dir) {
		t.Errorf("Dir %q is not absolute", w.Dir)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Errorf("Remove left %s behind", w.Dir)
	}
}

func TestOverlay(t *testing.T) {
	tk := task(t, "leap_year")
	dir := workspace(t, tk)
	if err := Overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "leap.py"))
	if !strings.Contains(string(got), "year % 400 == 0") {
		t.Error("the solution was not overlaid")
	}
	if _, err := os.Stat(filepath.Join(dir, "test_leap.py")); err != nil {
		t.Error("the overlay removed a file it does not hold")
	}
	if err := Overlay(tk, dir, "partial"); err == nil || !strings.Contains(err.Error(), "no partial/ folder") {
		t.Errorf("overlaying a missing partial/: err = %v", err)
	}
	if err := Overlay(tk, dir, "../repo"); err == nil {
		t.Error("Overlay accepted a folder other than solution or partial")
	}
}

func TestGradeOriginalAndSolution(t *testing.T) {
	tracktest.NeedPython(t)
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
	if err := Overlay(tk, dir, "solution"); err != nil {
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

// TestGradePartialParseDate: fixing only the line the traceback points to
// exposes the month off by one.
func TestGradePartialParseDate(t *testing.T) {
	tracktest.NeedPython(t)
	tk := task(t, "parse_date")
	dir := workspace(t, tk)
	if err := Overlay(tk, dir, "partial"); err != nil {
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
	tracktest.NeedPython(t)
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
	tracktest.NeedPython(t)
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
		t.Skip("no symlinks:", err)
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

// TestGradeImportFailureCountsEveryTest: a source that does not even import
// fails every test of the task, not zero tests.
func TestGradeImportFailureCountsEveryTest(t *testing.T) {
	tracktest.NeedPython(t)
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

// TestSlugifyFunctionOnlyReply reproduces the lesson's slugify failure: a
// reply holding only the fixed function, written over the whole file, loses
// import re.
func TestSlugifyFunctionOnlyReply(t *testing.T) {
	tracktest.NeedPython(t)
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

func TestVerifyCourseTasks(t *testing.T) {
	tracktest.NeedPython(t)
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		v := Verify(context.Background(), tk)
		if !v.OK() {
			t.Errorf("%s: %+v", tk.Name, v.Checks)
		}
		want := 3
		if tk.PartialExpect != "" {
			want = 4
		}
		if len(v.Checks) != want {
			t.Errorf("%s: %d checks, want %d", tk.Name, len(v.Checks), want)
		}
	}
}

// brokenTask is a copy of leap_year whose solution/ is the original bug.
func brokenTask(t *testing.T) tasks.Task {
	t.Helper()
	tk := task(t, "leap_year")
	m := fstest.MapFS{}
	fs.WalkDir(tk.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(tk.FS, p)
			m[p] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	m["solution/leap.py"] = m["repo/leap.py"]
	tk.FS = m
	return tk
}

func TestVerifyBrokenSolution(t *testing.T) {
	tracktest.NeedPython(t)
	v := Verify(context.Background(), brokenTask(t))
	if v.OK() {
		t.Fatal("a task whose solution fails verified")
	}
	for _, c := range v.Checks {
		if c.Name == CheckSolution && (c.OK || !strings.Contains(c.Detail, "3/6 passed") || !strings.Contains(c.Detail, "test_divisible_by_four_hundred")) {
			t.Errorf("solution check: %+v", c)
		}
		if c.Name == CheckOriginal && !c.OK {
			t.Errorf("original check: %+v", c)
		}
	}
}

// driftFS is a fake task folder whose README changes every time it is read,
// standing in for a task folder modified during the check.
type driftFS struct {
	fstest.MapFS
	reads *int
}

func (d driftFS) Open(name string) (fs.File, error) {
	if name == "NOTES.md" {
		*d.reads++
		d.MapFS[name] = &fstest.MapFile{Data: []byte(strings.Repeat("x", *d.reads))}
	}
	return d.MapFS.Open(name)
}

func (d driftFS) ReadFile(name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func TestVerifyNoticesAChangedFolder(t *testing.T) {
	tracktest.NeedPython(t)
	tk := task(t, "leap_year")
	m := fstest.MapFS{"NOTES.md": {Data: []byte("x")}}
	fs.WalkDir(tk.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(tk.FS, p)
			m[p] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	tk.FS = driftFS{m, new(int)}
	v := Verify(context.Background(), tk)
	last := v.Checks[len(v.Checks)-1]
	if last.Name != CheckUnchanged || last.OK || v.OK() {
		t.Errorf("a changed folder passed: %+v", v.Checks)
	}
}

// TestGradeShadowedHarness: a unittest.py written into the workspace root
// would be imported instead of the standard library's and could fake a pass.
func TestGradeShadowedHarness(t *testing.T) {
	tracktest.NeedPython(t)
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
	tracktest.NeedPython(t)
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
