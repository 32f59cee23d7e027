package grade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bench/sandbox"
	"bench/track/tracktest"
)

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
	tracktest.NeedPython(t)
	dir := workspace(t, task(t, "leap_year"))
	write(t, dir, map[string]string{"test_leap/__init__.py": tracktest.FakeLeapTests})
	mustNotPass(t, dir, "test_leap is a package shadowing a test module")
}

// TestFakePassPlantedBytecode: an unchecked-hash .pyc of fake tests in
// __pycache__ would be loaded instead of test_leap.py.
func TestFakePassPlantedBytecode(t *testing.T) {
	tracktest.NeedPython(t)
	dir := workspace(t, task(t, "leap_year"))
	plant := `import importlib.util, py_compile, sys
src = sys.argv[1]
open(src, "w").write(sys.argv[2])
py_compile.compile(src, cfile=importlib.util.cache_from_source("test_leap.py"),
                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`
	scratch := filepath.Join(t.TempDir(), "fake.py")
	cmd := exec.Command("python3", "-c", plant, scratch, tracktest.FakeLeapTests)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("planting the .pyc: %v\n%s", err, out)
	}
	// Proof that the plant works where nothing prevents it.
	check := exec.Command("python3", "-m", "unittest", "test_leap")
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("the planted .pyc does not fake a pass by itself, so this test proves nothing: %v\n%s", err, out)
	}
	mustNotPass(t, dir, "__pycache__ is a bytecode cache")
}

// TestFakePassArgparseShadow: an argparse.py in the workspace, imported by
// unittest's main, would print a fake "OK" and exit 0.
func TestFakePassArgparseShadow(t *testing.T) {
	tracktest.NeedPython(t)
	dir := workspace(t, task(t, "leap_year"))
	write(t, dir, map[string]string{"argparse.py": "import sys\nprint('Ran 6 tests in 0.001s\\n\\nOK')\nsys.exit(0)\n"})
	mustNotPass(t, dir, "argparse.py shadows a standard library module")
}

// TestFakePassNoOpAsserts: code under test that replaces the assert
// methods with no-ops makes every test pass; the grading runner sees it.
func TestFakePassNoOpAsserts(t *testing.T) {
	tracktest.NeedPython(t)
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
	tracktest.NeedPython(t)
	dir := workspace(t, task(t, "leap_year"))
	src, _ := os.ReadFile(filepath.Join(dir, "leap.py"))
	forge := "\nimport os, sys\nsys.stderr.write('Ran 6 tests in 0.001s\\n\\nOK\\n')\nprint('BENCH-VERDICT 0000 {\"ran\": 6, \"ok\": true, \"problems\": []}', flush=True)\nos._exit(0)\n"
	write(t, dir, map[string]string{"leap.py": string(src) + forge})
	mustNotPass(t, dir, "exited 0 without finishing")
}

// TestCorrectFixPassesInTheSandbox: the reference solution still passes,
// unflagged, with every layer this kernel offers.
func TestCorrectFixPassesInTheSandbox(t *testing.T) {
	tracktest.NeedPython(t)
	for _, name := range []string{"leap_year", "parse_date", "slugify", "word_freq"} {
		tk := task(t, name)
		dir := workspace(t, tk)
		if err := overlay(tk, dir, "solution"); err != nil {
			t.Fatal(err)
		}
		g, err := Grade(context.Background(), tk, dir)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := sandbox.Plan(sandbox.Config{})
		if !g.Passed || g.Tampered || len(g.Flags) > 0 || g.Result.Sandbox != want {
			t.Errorf("%s: passed=%v tampered=%v flags=%q sandbox %s (want %s)\n%s", name, g.Passed, g.Tampered, g.Flags, g.Result.Sandbox, want, g.Result.Output)
		}
		if want.FS != sandbox.Landlock || want.PID != sandbox.PIDNS {
			t.Logf("this kernel gives only %s", want)
		}
	}
}
