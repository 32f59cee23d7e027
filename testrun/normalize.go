package testrun

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var (
	ranLine = regexp.MustCompile(`(?m)^(Ran \d+ tests?) in \d+(?:\.\d+)?s$`)
	goTest  = regexp.MustCompile(`(?m)^(\s*--- (?:PASS|FAIL|SKIP): \S+) \(\d+(?:\.\d+)?s\)$`)
	goPkg   = regexp.MustCompile(`(?m)^((?:ok  |FAIL)\t\S+)\t\d+(?:\.\d+)?s$`)
	address = regexp.MustCompile(`\b0x[0-9a-fA-F]{6,}\b`)
)

// Normalize makes test output repeatable for a prompt: the workspace's
// absolute path (also its symlink-resolved form) becomes ".", the run time
// in "Ran 5 tests in 0.003s" becomes "Xs" (for Go, the times of
// "--- FAIL: TestX (0.00s)" and "ok  \tpkg\t0.004s" too), and object addresses become 0x….
func Normalize(out, dir string) string {
	for _, p := range workspacePaths(dir) {
		out = replacePath(out, p)
	}
	out = ranLine.ReplaceAllString(out, "$1 in Xs")
	out = goTest.ReplaceAllString(out, "$1 (Xs)")
	out = goPkg.ReplaceAllString(out, "$1\tXs")
	return address.ReplaceAllString(out, "0x…")
}

// workspacePaths returns the forms of dir that may appear in output,
// longest first so that no form is replaced inside another.
func workspacePaths(dir string) []string {
	if dir == "" {
		return nil
	}
	seen := map[string]bool{}
	var paths []string
	add := func(p string) {
		p = strings.TrimRight(p, string(filepath.Separator))
		if p != "" && p != "." && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	add(filepath.Clean(dir))
	if abs, err := filepath.Abs(dir); err == nil {
		add(abs)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		add(real)
	}
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	return paths
}

// replacePath replaces p with "." wherever it is a whole path or a path's
// prefix (followed by "/" or a character that cannot continue a file name
// such as a quote, a colon or a space), so that "/tmp/ws" does not touch "/tmp/ws2".
func replacePath(s, p string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, p)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(p)
		if end == len(s) || !nameByte(s[end]) {
			b.WriteString(s[:i])
			b.WriteString(".")
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

// nameByte reports whether c may continue a file name.
func nameByte(c byte) bool {
	return c == '.' || c == '-' || c == '_' || c == '~' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
