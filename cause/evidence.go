package cause

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxPart is the most characters of one quoted failure or message in a
// line of evidence.
const maxPart = 120

// clip makes s one line of at most n characters, cut with "…".
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// names lists test names for evidence: up to five, then how many more.
func names(tests []string) string {
	const show = 5
	if len(tests) <= show {
		return strings.Join(tests, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(tests[:show], ", "), len(tests)-show)
}

// fails is "fails" or "fail", agreeing with n tests.
func fails(n int) string {
	if n == 1 {
		return "fails"
	}
	return "fail"
}

// quote is a failure's first line, clipped, for evidence.
func quote(f *failure) string {
	if f == nil || f.text == "" {
		return "its failure is not shown"
	}
	return clip(f.text, maxPart)
}

// before words a failure of the first run for evidence: what it was, or
// that it kept the test from running.
func before(st status, f *failure) string {
	if st != notRun {
		return quote(f)
	}
	switch {
	case f == nil:
		return "it did not run"
	case f.kind == "build":
		return "it did not run: the package did not build (" + quote(f) + ")"
	case f.kind == "panic":
		return "it did not run: an earlier test's " + quote(f) + " ended the test binary"
	}
	return "it did not run: " + quote(f)
}

// code quotes a line of source for evidence.
func code(lines []string) string {
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = "`" + clip(l, maxPart) + "`"
	}
	return strings.Join(q, ", ")
}

// plural is "1 reply" or "3 replies".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
