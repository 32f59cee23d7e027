package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otiai10/copy"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// taskCopy copies the task's repo/ with the folder sub overlaid ("" for
// none) into a fresh temporary folder.
func taskCopy(t *testing.T, tk tasks.Task, sub string) string {
	t.Helper()
	dir := t.TempDir()
	for _, src := range []string{"repo", sub} {
		if src == "" {
			continue
		}
		if err := copy.Copy(src, dir, copy.Options{FS: tk.FS, PermissionControl: copy.AddPermission(0o200)}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// needGo skips t without go (fixture.NeedGo) and lets the Go test runs
// run in parallel, each in its own copy of the task (go's build cache
// takes turns; the serial tests, KillAll's among them, run before them).
func needGo(t *testing.T) {
	t.Helper()
	fixture.NeedGo(t)
	t.Parallel()
}

func TestRunTaskGoFailingTests(t *testing.T) {
	needGo(t)
	tk := fixture.SuiteTask(t, "go_clamp")
	res, err := RunTask(context.Background(), tk, taskCopy(t, tk, ""))
	if err != nil {
		t.Fatal(err)
	}
	if res.AllPassed() || res.Total != len(tk.Tests) || res.Passed >= res.Total || len(res.Failed) == 0 {
		t.Fatalf("repo/ of go_clamp: %d/%d passed, failed %v\n%s", res.Passed, res.Total, res.Failed, res.Output)
	}
	if !slices.Contains(res.Failed, "TestClampAbove") {
		t.Errorf("failed %v, want TestClampAbove among them", res.Failed)
	}
	if strings.Contains(res.Output, `"Action"`) || !strings.Contains(res.Output, "want 10") {
		t.Errorf("Output is not the text of the JSON events:\n%s", res.Output)
	}
	if len(res.Cases) != res.Total {
		t.Errorf("%d cases for %d tests: %+v", len(res.Cases), res.Total, res.Cases)
	}
}

func TestRunTaskGoSolutionPassesUncached(t *testing.T) {
	fixture.FullOnly(t, "TestGoEnvIsOfflineAndUncached checks -count=1, grade's TestGradeGoOriginalAndSolution passes the solution")
	needGo(t)
	tk := fixture.SuiteTask(t, "go_clamp")
	dir := taskCopy(t, tk, "solution")
	for range 2 { // the second run must run the tests again, not read a cached result
		res, err := RunTask(context.Background(), tk, dir)
		if err != nil {
			t.Fatal(err)
		}
		if !res.AllPassed() || res.Total != len(tk.Tests) {
			t.Fatalf("solution: %d/%d passed, failed %v\n%s", res.Passed, res.Total, res.Failed, res.Output)
		}
		if strings.Contains(res.Output, "(cached)") {
			t.Fatalf("a test result came from the cache:\n%s", res.Output)
		}
	}
}

func TestRunTaskGoBuildFailureFailsEveryTest(t *testing.T) {
	needGo(t)
	tk := fixture.SuiteTask(t, "go_clamp")
	dir := taskCopy(t, tk, "")
	if err := os.WriteFile(filepath.Join(dir, "clamp.go"), []byte("package clamp\n\nfunc Clamp(\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunTask(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed != 0 || res.Total != len(tk.Tests) || len(res.Failed) != len(tk.Tests) || !res.LoadError {
		t.Fatalf("build failure: %d/%d passed, failed %v, load error %v\n%s", res.Passed, res.Total, res.Failed, res.LoadError, res.Output)
	}
	if !strings.Contains(res.Normalized, "clamp.go") || strings.Contains(res.Normalized, dir) {
		t.Errorf("Normalized should name clamp.go without the workspace path:\n%s", res.Normalized)
	}
}

func TestGoEnvIsOfflineAndUncached(t *testing.T) {
	env := GoEnv("/cache/x", "/tmp/y")
	for _, want := range []string{"GOFLAGS=-mod=mod -count=1 -trimpath", "GOPROXY=off", "GOTOOLCHAIN=local", "GOCACHE=/cache/x", "GOENV=off", "GOWORK=off", "GOPATH=/tmp/y/gopath"} {
		if !slices.Contains(env, want) {
			t.Errorf("go environment %v lacks %s", env, want)
		}
	}
}

func TestGoCacheDirsAreSeparate(t *testing.T) {
	g, tr := GoCacheDir(GradeCache), GoCacheDir(TrackCache)
	if g == "" || tr == "" || g == tr || strings.HasPrefix(g, tr) || strings.HasPrefix(tr, g) {
		t.Fatalf("grading cache %q and tracks' cache %q must be separate folders", g, tr)
	}
}

func TestRunTaskPythonUnchanged(t *testing.T) {
	fixture.NeedPython(t)
	tk := fixture.SuiteTask(t, "leap_year")
	res, err := RunTask(context.Background(), tk, taskCopy(t, tk, "solution"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.AllPassed() || res.Total != len(tk.Tests) || len(res.Cases) != res.Total {
		t.Fatalf("leap_year solution: %d/%d passed\n%s", res.Passed, res.Total, res.Output)
	}
}

// cacheProbe is a file for package clamp whose init, run in the test
// binary, tries to list and to write the build cache given and says what
// happened.
const cacheProbe = `package clamp

import (
	"fmt"
	"os"
	"path/filepath"
)

func init() {
	_, err := os.ReadDir(%[1]q)
	fmt.Println("LIST", err == nil)
	fmt.Println("WRITE", os.WriteFile(filepath.Join(%[1]q, "planted"), []byte("x"), 0o644) == nil)
	fmt.Println("GOCACHE", os.Getenv("GOCACHE") == %[1]q)
}
`

// TestGoTestsNeverReachTheBuildCache: the code under test runs in the test
// binary, which can neither list nor write the build cache that built it
// (the go command compiled it there and never ran it).
func TestGoTestsNeverReachTheBuildCache(t *testing.T) {
	needGo(t)
	needLayers(t, "fs")
	tk := fixture.SuiteTask(t, "go_clamp")
	dir := taskCopy(t, tk, "solution")
	cache := GoCacheDir(TrackCache)
	if err := os.WriteFile(filepath.Join(dir, "probe.go"), fmt.Appendf(nil, cacheProbe, cache), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunTask(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !res.AllPassed() || !strings.Contains(res.Output, "LIST false") || !strings.Contains(res.Output, "WRITE false") || !strings.Contains(res.Output, "GOCACHE false") {
		t.Errorf("%d/%d passed; the test binary reached the cache:\n%s", res.Passed, res.Total, res.Output)
	}
	if _, err := os.Stat(filepath.Join(cache, "planted")); err == nil {
		t.Error("the test binary planted a file in the build cache")
	}
}

// TestGoBuildsHoldNoWorkspacePath: the packages go test compiles record
// module paths, not the workspace's folder (-trimpath), so that a package
// compiled in one workspace is found in the build cache by the next with
// the same code (the course's tasks graded seed after seed).
func TestGoBuildsHoldNoWorkspacePath(t *testing.T) {
	fixture.FullOnly(t, "TestGoEnvIsOfflineAndUncached checks -trimpath")
	needGo(t)
	tk := fixture.SuiteTask(t, "go_clamp")
	dir := taskCopy(t, tk, "solution")
	probe := "package clamp\n\nimport (\n\t\"fmt\"\n\t\"runtime\"\n)\n\nfunc init() {\n\t_, file, _, _ := runtime.Caller(0)\n\tfmt.Println(\"FILE\", file)\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "probe_test.go"), []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunTask(context.Background(), tk, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !res.AllPassed() || !strings.Contains(res.Output, "FILE ") || strings.Contains(res.Output, "FILE /") {
		t.Errorf("%d/%d passed; the test binary should name its file by module path:\n%s", res.Passed, res.Total, res.Output)
	}
}

// TestGoRunLeavesNoFileInTheWorkspace: the go command writes nothing into
// the workspace, which is HOME (its telemetry counters go under the run's
// temporary folder), so the tests and grading see only the task's files.
func TestGoRunLeavesNoFileInTheWorkspace(t *testing.T) {
	needGo(t)
	tk := fixture.SuiteTask(t, "go_clamp")
	dir := taskCopy(t, tk, "solution")
	want := listFiles(t, dir)
	if res, err := RunTask(context.Background(), tk, dir); err != nil || !res.AllPassed() {
		t.Fatalf("%v: %d/%d passed\n%s", err, res.Passed, res.Total, res.Output)
	}
	if got := listFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("the workspace holds %q after the run, %q before", got, want)
	}
}

// listFiles lists every path under dir, relative and sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if rel, _ := filepath.Rel(dir, p); err == nil && rel != "." {
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
