package gojson

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FuncNames returns the top-level test functions (func TestXxx(t
// *testing.T)) of one Go source file, in file order; name is used in
// errors only. A file that does not parse is an error.
func FuncNames(name string, src []byte) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", name, err)
	}
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if ok && fn.Recv == nil && isTestName(fn.Name.Name) && len(fn.Type.Params.List) == 1 && fn.Type.Results == nil {
			names = append(names, fn.Name.Name)
		}
	}
	return names, nil
}

// isTestName reports whether name is Test or Test followed by a character
// that is not a lower-case letter, as "go test" requires.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// TestFuncs returns the test functions of the files of fsys named in
// files that end in "_test.go", in the order of files and then of each
// file, without duplicates.
func TestFuncs(fsys fs.FS, files []string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("reading test file %s: %w", f, err)
		}
		found, err := FuncNames(f, src)
		if err != nil {
			return nil, err
		}
		for _, n := range found {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names, nil
}
