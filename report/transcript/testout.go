package transcript

import (
	"fmt"
	"strings"
)

// maxFailures is how many failing tests a shortened test run names.
const maxFailures = 3

// keyFailureLines picks, from unittest output, one line per failing test:
// "ERROR test_name: ValueError: …" (the test's header and the exception
// its traceback ends with), at most maxFailures of them, then how many more
// failed. Output it cannot read yields its last lines instead.
func keyFailureLines(output string) []string {
	lines := strings.Split(strings.TrimRight(output, "\n"), "\n")
	var out []string
	n := 0
	for i := 0; i < len(lines); i++ {
		kind, rest, ok := failureHeader(lines[i])
		if !ok {
			continue
		}
		n++
		if n > maxFailures {
			continue
		}
		name, _, _ := strings.Cut(rest, " ")
		out = append(out, strings.TrimSpace(kind+" "+name+": "+exceptionLine(lines[i+1:])))
	}
	if n > maxFailures {
		more := fmt.Sprintf("… (%d more failing tests)", n-maxFailures)
		if n-maxFailures == 1 {
			more = "… (1 more failing test)"
		}
		out = append(out, more)
	}
	if n == 0 {
		kept, _ := lastLines(lines, 3)
		out = kept
	}
	return out
}

// failureHeader reads unittest's "FAIL: name (…)" or "ERROR: name (…)".
func failureHeader(line string) (kind, rest string, ok bool) {
	for _, k := range []string{"FAIL", "ERROR"} {
		if r, found := strings.CutPrefix(line, k+": "); found {
			return k, r, true
		}
	}
	return "", "", false
}

// exceptionLine returns the first unindented line after a traceback, up to
// the next separator: the exception a failing test raised.
func exceptionLine(lines []string) string {
	inTrace := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "=====") || (strings.HasPrefix(l, "-----") && inTrace):
			return ""
		case strings.HasPrefix(l, "Traceback"):
			inTrace = true
		case inTrace && l != "" && l[0] != ' ' && !strings.HasPrefix(l, "During handling"):
			return l
		}
	}
	return ""
}

// lastLines returns the last n non-blank lines.
func lastLines(lines []string, n int) ([]string, int) {
	var kept []string
	for i := len(lines) - 1; i >= 0 && len(kept) < n; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			kept = append([]string{lines[i]}, kept...)
		}
	}
	return kept, len(lines) - len(kept)
}
