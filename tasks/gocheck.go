package tasks

import (
	"io/fs"
	"slices"
	"strings"

	"bench/testrun/gojson"
)

// checkGoFiles checks a Go task's repo/: it holds go.mod, the source is a
// non-test .go file, and test_files lists exactly its *_test.go files and
// the files under testdata/, so that grading protects all of them.
func checkGoFiles(t Task, bad badField) error {
	if err := checkFile(t.FS, "go.mod"); err != nil {
		return bad("framework", "is \"go\" but repo/go.mod is missing; a Go task's repo/ needs its module file (stored as repo/_go.mod)")
	}
	if !strings.HasSuffix(t.Source, ".go") || strings.HasSuffix(t.Source, "_test.go") {
		return bad("source", "is %q; expected a .go file that is not a test", t.Source)
	}
	for _, f := range t.TestFiles {
		if !goTestFile(f) {
			return bad("test_files", "%q is neither a *_test.go file nor under testdata/", f)
		}
	}
	var missing []string
	err := fs.WalkDir(t.FS, Repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, "repo/")
		if goTestFile(rel) && !slices.Contains(t.TestFiles, rel) {
			missing = append(missing, rel)
		}
		return nil
	})
	if err != nil {
		return bad("test_files", "%v", err)
	}
	if len(missing) > 0 {
		return bad("test_files", "lacks %s; a Go task protects every *_test.go file and every file under testdata/", strings.Join(missing, ", "))
	}
	return nil
}

// goTestFile reports whether the repo/ file name is a Go test file or test data.
func goTestFile(name string) bool {
	return strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "testdata/") || strings.Contains(name, "/testdata/")
}

// testNames returns the names of the tests defined in the task's test files.
func (t Task) testNames() ([]string, error) {
	if t.Framework != FrameworkGo {
		return testNames(t.FS, t.TestFiles)
	}
	repo, err := fs.Sub(t.FS, Repo)
	if err != nil {
		return nil, err
	}
	return gojson.TestFuncs(repo, t.TestFiles)
}

// testKind names what test names are, for the error when there are none.
func testKind(framework string) string {
	if framework == FrameworkGo {
		return "test functions (func TestXxx(t *testing.T))"
	}
	return "test methods (def test_...)"
}
