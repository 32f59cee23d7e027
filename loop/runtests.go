package loop

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"bench/testrun"
)

// runTests is the run_tests tool: a one-line verdict, then the normalised
// output, its head and tail kept when it is long.
func runTests(ctx context.Context, s *session, _ map[string]string) (string, error) {
	res, err := s.env.RunTests(ctx)
	if err != nil {
		return "", fmt.Errorf("could not run the tests: %w", err)
	}
	head := Verdict(res) + "\n\n"
	return head + CapMiddle(res.Normalized, ResultCap-len(head)), nil
}

// Verdict is the first line of a run_tests result: "6/6 passed", or
// "2 of 6 failed: test_a, test_b", or what else stopped the run.
func Verdict(res testrun.Result) string {
	if res.TimedOut {
		return fmt.Sprintf("timed out: the test command was stopped (%d tests had passed)", res.Passed)
	}
	if res.Total == 0 {
		return fmt.Sprintf("no tests ran (exit code %d)", res.ExitCode)
	}
	v := fmt.Sprintf("%d/%d passed", res.Passed, res.Total)
	if failed := res.Total - res.Passed; failed > 0 {
		v = fmt.Sprintf("%d of %d failed", failed, res.Total)
		if len(res.Failed) > 0 {
			v += ": " + strings.Join(res.Failed, ", ")
		}
	} else if res.ExitCode != 0 {
		v += fmt.Sprintf(", but the test command exited with code %d", res.ExitCode)
	}
	if res.LoadError {
		v = "a test module could not be imported: " + v
	}
	return v
}

// CapMiddle keeps text whole when it fits in limit bytes; else its first
// and last parts (cut on character boundaries) around a line saying how
// much was cut, all within limit.
func CapMiddle(text string, limit int) string {
	if len(text) <= limit {
		return text
	}
	marker := fmt.Sprintf("\n[%d bytes of output cut here]\n", len(text))
	keep := max(limit-len(marker), 0)
	h := keep / 2
	for h > 0 && !utf8.RuneStart(text[h]) {
		h--
	}
	t := len(text) - (keep - keep/2)
	for t < len(text) && !utf8.RuneStart(text[t]) {
		t++
	}
	return text[:h] + fmt.Sprintf("\n[%d bytes of output cut here]\n", t-h) + text[t:]
}
