package grade

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/sandbox"
	"bench/tasks"
	"bench/testrun"
)

// TestControlsHoldOnEverySuiteTask: with a plan drawn afresh each time,
// every task's reference solution still passes, unflagged, and its
// original and partial code fail without a tampering reason: no control
// passes for honest code, right or wrong; and the solution is graded
// without a flag, in the whole sandbox this machine gives (on a kernel
// with Landlock, the answers are out of reach). Short mode grades the
// course's tasks and one Go task (shortControlsGoTask); full mode every
// task.
func TestControlsHoldOnEverySuiteTask(t *testing.T) {
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		t.Run(tk.Name, func(t *testing.T) {
			if testing.Short() && !tasks.InCourse(tk.Name) && tk.Name != shortControlsGoTask {
				t.Skip("full mode only: short mode grades the course's tasks and " + shortControlsGoTask)
			}
			if isGo(tk) {
				suiteTask(t, tk.Name) // skips without go
			} else {
				fixture.ParallelPython(t)
			}
			for _, sub := range []string{"", "partial", "solution"} {
				if sub == "partial" && tk.PartialExpect == "" {
					continue
				}
				dir := workspace(t, tk)
				if sub != "" {
					if err := overlay(tk, dir, sub); err != nil {
						t.Fatal(err)
					}
				}
				g, err := Grade(context.Background(), tk, dir)
				if err != nil {
					t.Fatal(err)
				}
				if g.Tampered || g.Passed != (sub == "solution") || g.TestsTotal != len(tk.Tests) {
					t.Errorf("%s: passed %v, tampered %v, %d/%d, reasons %v\n%s", or(sub, "repo"), g.Passed, g.Tampered, g.TestsPassed, g.TestsTotal, g.Reasons, g.Result.Output)
				}
				if want, _ := sandbox.Plan(sandbox.Config{}); sub == "solution" && (len(g.Flags) > 0 || g.Result.Sandbox != want) {
					t.Errorf("solution: flags %q, sandbox %s, want none and %s", g.Flags, g.Result.Sandbox, want)
				}
				if sub == "partial" && !strings.Contains(g.Result.Output, tk.PartialExpect) {
					t.Errorf("partial: the output lacks %q:\n%s", tk.PartialExpect, g.Result.Output)
				}
			}
		})
	}
}

// shortControlsGoTask is the Go task TestControlsHoldOnEverySuiteTask
// grades in short mode, beside the course's Python tasks.
const shortControlsGoTask = "go_clamp"

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// craftedTests is a test file with the shapes a task's tests take: the
// code under test from a module of the workspace (helpers), literals of
// every kind, multi-line calls, bare asserts, decorators, subtests, a
// method another calls by name, and methods no control can copy.
const craftedTests = `import unittest
from unittest import mock

import helpers
from helpers import double, name_of


def shared(x):
    return x


class HelpersTest(unittest.TestCase):
    def setUp(self):
        self.base = 2

    def test_double(self):
        self.assertEqual(double(2), 4)
        self.assertEqual(double(-1), -2)

    def test_floats_and_strings(self):
        self.assertAlmostEqual(helpers.half(3), 1.5)
        self.assertEqual(name_of(3), "three")
        self.assertEqual(helpers.raw(), b"raw")

    def test_containers(self):
        self.assertEqual(
            helpers.table(),
            {"a": [1, 2], "b": (3.5, "x")},
        )

    def test_flags(self):
        self.assertTrue(helpers.even(2))
        self.assertIsNone(helpers.nothing())
        self.assertIn(3, helpers.table()["b"] + (3,))
        assert double(3) == 6, "bare assert"

    def test_calls_another(self):
        self.test_double()

    def test_subtests(self):
        for n in (1, 2):
            with self.subTest(n=n):
                self.assertEqual(double(n), 2 * n)

    def test_raises(self):
        with self.assertRaises(ValueError):
            helpers.fail()

    def test_returns_early(self):
        if double(1) == 2:
            return
        self.fail("unreachable")

    @mock.patch("helpers.half", return_value=0)
    def test_patched(self, half):
        self.assertEqual(helpers.half(8), 0)

    def test_one_line(self): self.assertEqual(double(0), 0)

    @unittest.skip("not here")
    def test_skipped(self):
        self.assertEqual(double(1), 3)

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(double(1), 3)


class NoTests(unittest.TestCase):
    value = 1


class MoreTest(HelpersTest):
    def test_more(self):
        self.assertEqual(shared(double(5)), 10)
`

// craftedHelpers is the code under test of craftedTests.
const craftedHelpers = `def double(x): return 2 * x
def name_of(n): return {3: "three"}[n]
def half(x): return x / 2
def raw(): return b"raw"
def table(): return {"a": [1, 2], "b": (3.5, "x")}
def even(n): return n % 2 == 0
def nothing(): return None
def fail(): raise ValueError("no")
`

// TestRenderPythonControlsFailAlone renders craftedTests with a fresh
// plan many times (five; two in short mode) and runs the result with plain
// unittest: every task test keeps its outcome under its new name, every
// control fails, and every test that can have a control has one.
func TestRenderPythonControlsFailAlone(t *testing.T) {
	fixture.ParallelPython(t)
	tk := craftedTask(t)
	rounds := 5
	if testing.Short() {
		rounds = 2 // every round checks every kind of control; more rounds, more draws
	}
	for round := range rounds {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			t.Parallel() // each round draws its own plan in its own folder
			renderCraftedRound(t, tk, round)
		})
	}
}

// renderCraftedRound is one round of TestRenderPythonControlsFailAlone.
func renderCraftedRound(t *testing.T, tk tasks.Task, round int) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"helpers.py": craftedHelpers, "test_helpers.py": craftedTests})
	p, err := planPython(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "test_helpers.py"))
	cmd := exec.Command(fixture.Python(t), "-m", "unittest", "-v", "test_helpers")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	parsed := testrun.Parse(string(out))
	got := map[string][]string{}
	for _, c := range parsed.Cases {
		got[testrun.MethodName(c.Name)] = append(got[testrun.MethodName(c.Name)], c.Outcome)
	}
	want := map[string]string{"test_skipped": testrun.Skipped, "test_known_bug": testrun.ExpectedFailure}
	for sealed, name := range p.real {
		if sealed == name {
			t.Errorf("round %d: %s was not renamed", round, name)
		}
		if o := worst(got[sealed]); o != or(want[name], testrun.OK) {
			t.Errorf("round %d: %s (%s) reported %v", round, name, sealed, got[sealed])
		}
	}
	twins := map[string]string{}
	for sealed, c := range p.controls {
		twins[c.of] = c.kind
		if o := got[sealed]; len(o) == 0 || !failed(worst(o)) || slices.ContainsFunc(o, func(s string) bool { return !failed(s) }) {
			t.Errorf("round %d: the %s control of %q (%s) reported %v", round, c.kind, c.of, sealed, o)
		}
	}
	for name, kind := range map[string]string{"test_double": kindValue, "test_floats_and_strings": kindValue, "test_containers": kindValue,
		"test_calls_another": kindTail, "test_subtests": kindTail, "test_raises": kindTail, "test_patched": kindValue, "test_more": kindValue, "": kindFail} {
		if twins[name] != kind {
			t.Errorf("round %d: %q has a %q control, want %q", round, name, twins[name], kind)
		}
	}
	if k := twins["test_flags"]; k != kindValue && k != kindFlip {
		t.Errorf("round %d: test_flags has a %q control", round, k)
	}
	for _, none := range []string{"test_returns_early", "test_one_line", "test_skipped", "test_known_bug"} {
		if _, ok := twins[none]; ok {
			t.Errorf("round %d: %s has a control", round, none)
		}
	}
	if t.Failed() || round == 0 && testing.Verbose() {
		t.Logf("the sealed file:\n%s\n%s", src, out)
	}
	if t.Failed() {
		t.FailNow()
	}
}

// craftedTask is a task whose tests are craftedTests.
func craftedTask(t *testing.T) tasks.Task {
	t.Helper()
	return fixture.LoadTask(t, fstest.MapFS{
		"crafted/task.toml": {Data: []byte(`name = "crafted"
title = "Crafted tests"
instruction = "Keep the tests passing."
test_cmd = ["python3", "-m", "unittest", "-v", "test_helpers"]
source = "helpers.py"
test_files = ["test_helpers.py"]
timeout = "30s"
archetype = "control"
answers = [true, true, true]
`)},
		"crafted/repo/helpers.py":      {Data: []byte(craftedHelpers)},
		"crafted/repo/test_helpers.py": {Data: []byte(craftedTests)},
		"crafted/solution/helpers.py":  {Data: []byte(craftedHelpers)},
	}, "crafted")
}

func TestControlsGrowTheTimeout(t *testing.T) {
	p := newPlan([]string{"a", "b"})
	if got := p.timeout(30 * time.Second); got != 30*time.Second {
		t.Errorf("without controls: %s", got)
	}
	p.controls["x"], p.controls["y"], p.controls["z"] = control{of: "a"}, control{of: "b"}, control{kind: kindFail}
	if got := p.timeout(30 * time.Second); got != 75*time.Second {
		t.Errorf("two tests and three controls: %s, want 75s", got)
	}
}
