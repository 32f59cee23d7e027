package tasks

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

var (
	classDef = regexp.MustCompile(`^class\s+\w+`)
	testDef  = regexp.MustCompile(`^(?:async\s+)?def\s+(test\w*)\s*\(`)
)

// testNames returns the names of the test methods (def test_… directly in a
// top-level class body) of the test files in repo/, in file order, without
// duplicates.
func testNames(fsys fs.FS, files []string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, path.Join(Repo, f))
		if err != nil {
			return nil, fmt.Errorf("reading test file %s: %w", f, err)
		}
		for _, name := range methodNames(data) {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	return names, nil
}

// methodNames scans Python source for test methods of top-level classes.
func methodNames(src []byte) []string {
	var names []string
	inClass, body := false, "" // body is the indentation of the class body, once known
	for raw := range bytes.Lines(src) {
		line := strings.TrimRight(string(raw), "\r\n")
		code := strings.TrimLeft(line, " \t")
		if code == "" || strings.HasPrefix(code, "#") {
			continue
		}
		indent := line[:len(line)-len(code)]
		switch {
		case indent == "":
			inClass, body = classDef.MatchString(code), ""
		case inClass && body == "":
			body = indent
			fallthrough
		case inClass && indent == body:
			if m := testDef.FindStringSubmatch(code); m != nil {
				names = append(names, m[1])
			}
		}
	}
	return names
}
