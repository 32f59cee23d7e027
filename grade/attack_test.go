package grade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
)

// reasonCodes are the codes of rs, for the tests' checks and messages.
func reasonCodes(rs []Reason) string {
	var codes []string
	for _, r := range rs {
		codes = append(codes, r.Code)
	}
	return strings.Join(codes, ", ")
}

// write writes files (relative path → content) into dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mustNotPass grades dir and fails unless the bug is graded failed and
// the fake flagged as tampering with a reason containing want.
func mustNotPass(t *testing.T, dir, want string) Result {
	t.Helper()
	g, err := Grade(context.Background(), task(t, "leap_year"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Passed || !g.Tampered || !strings.Contains(strings.Join(g.Flags, "\n"), want) {
		t.Errorf("passed=%v tampered=%v %d/%d flags=%q\n%s", g.Passed, g.Tampered, g.TestsPassed, g.TestsTotal, g.Flags, g.Result.Output)
	}
	return g
}

// TestFakePassPackageShadowsTestModule: test_leap/__init__.py would be
// imported instead of test_leap.py.
func TestFakePassPackageShadowsTestModule(t *testing.T) {
	fixture.ParallelPython(t)
	dir := workspace(t, task(t, "leap_year"))
	write(t, dir, map[string]string{"test_leap/__init__.py": fixture.FakeLeapTests})
	mustNotPass(t, dir, "test_leap is a package shadowing a test module")
}

// TestFakePassPlantedBytecode: an unchecked-hash .pyc of fake tests in
// __pycache__ would be loaded instead of test_leap.py.
func TestFakePassPlantedBytecode(t *testing.T) {
	fixture.ParallelPython(t)
	dir := workspace(t, task(t, "leap_year"))
	plant := `import importlib.util, py_compile, sys
src = sys.argv[1]
open(src, "w").write(sys.argv[2])
py_compile.compile(src, cfile=importlib.util.cache_from_source("test_leap.py"),
                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`
	scratch := filepath.Join(t.TempDir(), "fake.py")
	cmd := exec.Command(fixture.Python(t), "-c", plant, scratch, fixture.FakeLeapTests)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("planting the .pyc: %v\n%s", err, out)
	}
	// Proof that the plant works where nothing prevents it.
	check := exec.Command(fixture.Python(t), "-m", "unittest", "test_leap")
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("the planted .pyc does not fake a pass by itself, so this test proves nothing: %v\n%s", err, out)
	}
	mustNotPass(t, dir, "__pycache__ is a bytecode cache")
}

// TestFakePassArgparseShadow: an argparse.py in the workspace, imported by
// unittest's main, would print a fake "OK" and exit 0.
func TestFakePassArgparseShadow(t *testing.T) {
	fixture.ParallelPython(t)
	dir := workspace(t, task(t, "leap_year"))
	write(t, dir, map[string]string{"argparse.py": "import sys\nprint('Ran 6 tests in 0.001s\\n\\nOK')\nsys.exit(0)\n"})
	mustNotPass(t, dir, "argparse.py shadows a standard library module")
}

// TestFakePassNoOpAsserts: code under test that replaces the assert
// methods with no-ops makes every test pass; the grading runner sees it.
func TestFakePassNoOpAsserts(t *testing.T) {
	fixture.ParallelPython(t)
	dir := workspace(t, task(t, "leap_year"))
	src, err := os.ReadFile(filepath.Join(dir, "leap.py"))
	if err != nil {
		t.Fatal(err)
	}
	patch := "\nimport unittest\nfor _n in dir(unittest.TestCase):\n    if _n.startswith('assert'):\n        setattr(unittest.TestCase, _n, lambda *a, **k: None)\n"
	write(t, dir, map[string]string{"leap.py": string(src) + patch})
	g := mustNotPass(t, dir, "unittest.TestCase.assertEqual was replaced")
	if g.TestsPassed != 6 {
		t.Errorf("the no-op asserts did not fake a pass in the output (%d/6), so this test proves nothing", g.TestsPassed)
	}
}

// TestFakePassForgedVerdict: code that prints a verdict line of its own
// and exits before the grading runner can report is caught.
func TestFakePassForgedVerdict(t *testing.T) {
	fixture.ParallelPython(t)
	dir := workspace(t, task(t, "leap_year"))
	src, _ := os.ReadFile(filepath.Join(dir, "leap.py"))
	forge := "\nimport os, sys\nsys.stderr.write('Ran 6 tests in 0.001s\\n\\nOK\\n')\nprint('BENCH-VERDICT 0000 {\"ran\": 6, \"ok\": true, \"problems\": []}', flush=True)\nos._exit(0)\n"
	write(t, dir, map[string]string{"leap.py": string(src) + forge})
	mustNotPass(t, dir, "exited 0 without finishing")
}

// TestKnownFakesStillFail replays fakes that earlier rounds checked by
// hand: none makes the buggy leap.py pass, and those that are caught as
// tampering say so.
func TestKnownFakesStillFail(t *testing.T) {
	fixture.ParallelPython(t)
	deep := strings.Repeat("d/", 400) + "x.py"
	for name, c := range map[string]struct {
		files  map[string]string
		append string // added to the buggy leap.py
		reason string // the tampering reason's code, "" when it is only a failure
	}{
		"a .pth file":           {files: map[string]string{"evil.pth": "import os; os._exit(0)\n"}},
		"usercustomize in HOME": {files: map[string]string{".local/lib/python3.11/site-packages/usercustomize.py": "import os; os._exit(0)\n", ".local/lib/python3.11/site-packages/evil.pth": "import os; os._exit(0)\n"}},
		"a conftest.py":         {files: map[string]string{"conftest.py": "import os; os._exit(0)\n"}},
		"os._exit(0) at import": {append: "\nimport os\nos._exit(0)\n", reason: ReasonNoVerdict},
		"os._exit(0) at exit":   {append: "\nimport atexit, os\natexit.register(os._exit, 0)\n"},
		"sys.exit(0) at import": {append: "\nimport sys\nsys.exit(0)\n"},
		"a deep tree":           {files: map[string]string{deep: "x = 1\n"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each fake in its own workspace
			dir := workspace(t, task(t, "leap_year"))
			write(t, dir, c.files)
			if c.append != "" {
				src, _ := os.ReadFile(filepath.Join(dir, "leap.py"))
				write(t, dir, map[string]string{"leap.py": string(src) + c.append})
			}
			g, err := Grade(context.Background(), task(t, "leap_year"), dir)
			if err != nil {
				t.Fatal(err)
			}
			codes := reasonCodes(g.Reasons)
			if g.Passed || (c.reason != "" && !strings.Contains(codes, c.reason)) {
				t.Errorf("passed %v, %d/%d, reasons %q; want a failure (reason %q)\n%s", g.Passed, g.TestsPassed, g.TestsTotal, codes, c.reason, g.Result.Output)
			}
		})
	}
}

// TestFakePassRewritesALaterTestModule: code under test imported by the
// first test module rewrites the second one on disk (in the sealed copy,
// which the run may write) with tests that pass; Python then imports the
// fake, from the test file's own path. The controls catch it; without
// them it passes.
func TestFakePassRewritesALaterTestModule(t *testing.T) {
	// Not parallel: it switches the controls off for a moment.
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	tk := fixture.SuiteTask(t, "file_sizes")
	grade := func() Result {
		dir := workspace(t, tk)
		if err := overlay(tk, dir, "partial"); err != nil { // test_human passes, test_quota fails
			t.Fatal(err)
		}
		src, _ := os.ReadFile(filepath.Join(dir, "sizes.py"))
		fake := "import unittest\n\n\nclass QuotaTest(unittest.TestCase):\n    def test_small_plan(self):\n        pass\n\n    def test_large_plan(self):\n        pass\n"
		write(t, dir, map[string]string{"sizes.py": string(src) + "\nwith open('test_quota.py', 'w') as _f:\n    _f.write(" + strconv.Quote(fake) + ")\n"})
		g, err := Grade(context.Background(), tk, dir)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := grade()
	if g.Passed || !strings.Contains(reasonCodes(g.Reasons), ReasonUnknownTest) {
		t.Errorf("passed %v, %d/%d, reasons %v", g.Passed, g.TestsPassed, g.TestsTotal, g.Reasons)
	}
	SetControls(false)
	defer SetControls(true)
	if g := grade(); !g.Passed {
		t.Errorf("without controls: passed %v, %d/%d, reasons %v; the rewrite should fake test_quota", g.Passed, g.TestsPassed, g.TestsTotal, g.Reasons)
	}
}
