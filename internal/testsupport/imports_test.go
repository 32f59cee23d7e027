package testsupport

import (
	"cmp"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBenchImportsInTheirOwnGroup: in every Go file of the module, bench's
// own packages are imported in a group of their own, after the standard
// library's. goimports without -local bench takes a module path without a
// dot for the standard library's and groups them together.
func TestBenchImportsInTheirOwnGroup(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	// The walk opens every folder and Go file it reads, so Go's test cache
	// keys the result on them: no ConsultModule.
	skip := map[string]bool{"testdata": true, "bin": true, "results": true} // no Go source: fixtures, builds, run folders
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (skip[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		if mixed := mixedGroup(t, path); mixed != "" {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s imports %s in a group with the standard library's packages (goimports -local bench)", rel, mixed)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// mixedGroup returns the first bench package the file at path imports in
// the same group (lines without a blank line between them) as a package
// of the standard library, or "".
func mixedGroup(t *testing.T, path string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	group, prev := 0, 0
	std, bench := map[int]bool{}, map[int]string{}
	for _, spec := range f.Imports {
		line := fset.Position(spec.Pos()).Line
		if prev != 0 && line > prev+1 {
			group++
		}
		prev = line
		p, _ := strconv.Unquote(spec.Path.Value)
		switch first, _, _ := strings.Cut(p, "/"); {
		case first == "bench":
			bench[group] = cmp.Or(bench[group], p)
		case !strings.Contains(first, "."):
			std[group] = true
		}
	}
	for g := range group + 1 {
		if std[g] && bench[g] != "" {
			return bench[g]
		}
	}
	return ""
}
