package testrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/exefile"
	"bench/internal/testsupport/fixture"
)

// fakeShim writes a pyenv-like shim, shims/python3, that counts its starts
// in a file and runs the real python3 (the interpreter itself, not the
// python3 on PATH, which may be a version manager's slow shim).
func fakeShim(t *testing.T) (shim, count string) {
	t.Helper()
	real := fixture.Python(t)
	dir := filepath.Join(t.TempDir(), "shims")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	count = filepath.Join(t.TempDir(), "starts")
	shim = filepath.Join(dir, "python3")
	script := "#!/bin/sh\necho start >> " + count + "\nexec " + real + " \"$@\"\n"
	exefile.Write(t, shim, []byte(script))
	return shim, count
}

// TestShimIsAskedOnce checks that test runs through a Python shim start the
// interpreter directly: the shim runs once, to name it, not once per run.
func TestShimIsAskedOnce(t *testing.T) {
	shim, count := fakeShim(t)
	if got := Interpreter(shim); got == shim || !filepath.IsAbs(got) {
		t.Fatalf("Interpreter(%s) = %s, want the interpreter the shim runs", shim, got)
	}
	for range 3 {
		res, err := RunWith(context.Background(), t.TempDir(), []string{shim, "-c", "print('ran')"}, 30*time.Second, Options{})
		if err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "ran") {
			t.Fatalf("run through the shim: exit %d, err %v, output %q", res.ExitCode, err, res.Output)
		}
	}
	b, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "start"); n != 1 {
		t.Errorf("the shim started %d times for one question and three runs, want 1", n)
	}
}

func TestInterpreterLeavesOtherProgramsAlone(t *testing.T) {
	for _, bin := range []string{"/usr/bin/python3", "/bin/sh", filepath.Join(t.TempDir(), "shims", "go")} {
		if got := Interpreter(bin); got != bin {
			t.Errorf("Interpreter(%s) = %s, want it unchanged", bin, got)
		}
	}
}

// TestBrokenShimIsUsedAsItIs: a shim that cannot name its interpreter is
// run as it is.
func TestBrokenShimIsUsedAsItIs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shims")
	os.Mkdir(dir, 0o755)
	shim := filepath.Join(dir, "python3")
	exefile.Write(t, shim, []byte("#!/bin/sh\necho not a path\n"))
	if got := Interpreter(shim); got != shim {
		t.Errorf("Interpreter(broken shim) = %s, want the shim", got)
	}
}

// TestShimAnswerIsKept: a later process (here, the same one with its
// answers forgotten) takes the shim's answer from the user's cache
// folder without running it, until the manager's version file changes.
func TestShimAnswerIsKept(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	shim, count := fakeShim(t)
	first := Interpreter(shim)
	interpreters.Delete(shim)
	if got := Interpreter(shim); got != first {
		t.Fatalf("the kept answer %s differs from the first %s", got, first)
	}
	if b, _ := os.ReadFile(count); strings.Count(string(b), "start") != 1 {
		t.Errorf("the shim started %d times, want once", strings.Count(string(b), "start"))
	}
	version := filepath.Join(filepath.Dir(filepath.Dir(shim)), "version")
	if err := os.WriteFile(version, []byte("3.99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	interpreters.Delete(shim)
	Interpreter(shim)
	if b, _ := os.ReadFile(count); strings.Count(string(b), "start") != 2 {
		t.Errorf("after the version file changed the shim started %d times in all, want 2", strings.Count(string(b), "start"))
	}
}
