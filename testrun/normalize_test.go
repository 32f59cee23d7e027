package testrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
)

func TestNormalize(t *testing.T) {
	out := readCapture(t, "failures")
	got := Normalize(out, "/tmp/bench-capture/failures")
	if strings.Contains(got, "/tmp/bench-capture") {
		t.Errorf("the workspace path survived:\n%s", got)
	}
	for _, want := range []string{`File "./test_calc.py", line 8, in test_div`, `File "./calc.py", line 2, in div`, "Ran 4 tests in Xs\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("normalised output lacks %q:\n%s", want, got)
		}
	}
	if Normalize(got, "/tmp/bench-capture/failures") != got {
		t.Error("Normalize is not idempotent")
	}
}

func TestNormalizeRanLine(t *testing.T) {
	for in, want := range map[string]string{
		"Ran 1 test in 0.000s\n":    "Ran 1 test in Xs\n",
		"Ran 1500 tests in 12.5s\n": "Ran 1500 tests in Xs\n",
		"Ran 3 tests in 2s":         "Ran 3 tests in Xs",
		"  Ran 3 tests in 0.1s":     "  Ran 3 tests in 0.1s", // not unittest's line
	} {
		if got := Normalize(in, ""); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeAddresses(t *testing.T) {
	in := "AssertionError: <calc.Box object at 0x7f3a9c2b1d90> != None"
	if got := Normalize(in, ""); got != "AssertionError: <calc.Box object at 0x…> != None" {
		t.Errorf("got %q", got)
	}
}

func TestNormalizeOnlyWholePaths(t *testing.T) {
	got := Normalize(`/tmp/ws/a.py /tmp/ws2/b.py "/tmp/ws" /tmp/ws: /tmp/ws.old`, "/tmp/ws")
	want := `./a.py /tmp/ws2/b.py "." .: /tmp/ws.old`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestNormalizeSymlink covers macOS's /tmp → /private/tmp: Python prints the
// resolved path while the workspace was named through the link.
func TestNormalizeSymlink(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		fixture.Lacks(t, fmt.Sprint("no symlinks here: ", err))
	}
	resolved, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	in := "File \"" + resolved + "/x.py\"; File \"" + link + "/y.py\""
	if got := Normalize(in, link); got != `File "./x.py"; File "./y.py"` {
		t.Errorf("got %q", got)
	}
}

func TestNormalizeGoTimings(t *testing.T) {
	in := "--- FAIL: TestClampAbove (0.00s)\n    --- PASS: TestX/sub (0.12s)\nFAIL\tclamp\t0.004s\nok  \tclamp/sub\t1.250s\n"
	want := "--- FAIL: TestClampAbove (Xs)\n    --- PASS: TestX/sub (Xs)\nFAIL\tclamp\tXs\nok  \tclamp/sub\tXs\n"
	if got := Normalize(in, "/nowhere"); got != want {
		t.Errorf("Normalize:\n%q\nwant\n%q", got, want)
	}
}
