package loop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/testrun"
	"bench/track/tracktest"
)

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		res  testrun.Result
		want string
	}{
		{testrun.Result{Passed: 6, Total: 6}, "6/6 passed"},
		{testrun.Result{ExitCode: 1, Passed: 4, Total: 6, Failed: []string{"test_a", "test_b"}}, "2 of 6 failed: test_a, test_b"},
		{testrun.Result{ExitCode: 1, Passed: 5, Total: 6}, "1 of 6 failed"},
		{testrun.Result{ExitCode: 1, Passed: 6, Total: 6}, "6/6 passed, but the test command exited with code 1"},
		{testrun.Result{ExitCode: 5}, "no tests ran (exit code 5)"},
		{testrun.Result{ExitCode: 1, Total: 1, LoadError: true, Failed: []string{"test_leap"}}, "a test module could not be imported: 1 of 1 failed: test_leap"},
		{testrun.Result{ExitCode: -1, TimedOut: true, Passed: 2, Total: 2}, "timed out: the test command was stopped (2 tests had passed)"},
	} {
		if got := Verdict(tc.res); got != tc.want {
			t.Errorf("Verdict(%+v) = %q, want %q", tc.res, got, tc.want)
		}
	}
}

// TestRunTestsPutsTheVerdictFirstAndKeepsTheTail: tests that print a lot
// still show the verdict (first line) and unittest's own summary (the tail).
func TestRunTestsPutsTheVerdictFirstAndKeepsTheTail(t *testing.T) {
	fixture.ParallelPython(t)
	env, _ := newEnv(t, &tracktest.FakeChatter{})
	noisy := "import sys, unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n" +
		"    def test_add(self):\n        sys.stderr.write('noise ' * 20000 + '\\n')\n        self.assertEqual(add(2, 3), 5)\n" +
		"    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\n"
	if err := os.WriteFile(filepath.Join(env.Dir, "test_calc.py"), []byte(noisy), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := runTests(context.Background(), &session{env: env}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(got, "\n"); first != "1 of 2 failed: test_add" {
		t.Errorf("first line = %q", first)
	}
	if !strings.Contains(got, "FAILED (failures=1)") || !strings.Contains(got, "noise noise") || !strings.Contains(got, "bytes of output cut here") {
		t.Errorf("result lacks the head, the cut marker or the tail:\n%.300s\n...\n%s", got, got[max(0, len(got)-300):])
	}
	if len(got) > ResultCap {
		t.Errorf("result is %d bytes; the cap is %d", len(got), ResultCap)
	}
}
