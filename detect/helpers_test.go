package detect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv is a hermetic playground: HOME and TMPDIR point into it, system
// git configuration is off, and every tree lives at least six levels below
// its base, so no walk of seven directories leaves it.
type testEnv struct {
	t     testing.TB
	floor string // trees are built under here
	home  string
	tmp   string
}

func newEnv(t testing.TB) *testEnv {
	t.Helper()
	base := resolve(t.TempDir())
	floor := filepath.Join(base, "f1", "f2", "f3", "f4", "f5", "f6")
	e := &testEnv{t: t, floor: floor, home: filepath.Join(floor, "home"), tmp: filepath.Join(floor, "tmp")}
	for _, d := range []string{e.home, e.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", e.home)
	t.Setenv("TMPDIR", e.tmp)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	return e
}

// path is an absolute path below the floor.
func (e *testEnv) path(rel string) string {
	return filepath.Join(e.floor, filepath.FromSlash(rel))
}

// make creates each path below the floor: a name ending in "/" is a
// folder, anything else a small file.
func (e *testEnv) make(paths ...string) {
	e.t.Helper()
	for _, p := range paths {
		full := e.path(p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				e.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
}

// write creates one file with the given text.
func (e *testEnv) write(rel, text string) {
	e.t.Helper()
	full := e.path(rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// git runs git in a folder below the floor with the replay's scrubbed
// environment.
func (e *testEnv) git(rel string, args ...string) string {
	e.t.Helper()
	out, err := replayGit(e.home).run(e.path(rel), args...)
	if err != nil {
		e.t.Fatalf("git %v: %v", args, err)
	}
	return out
}

// commit makes rel a repository on main and commits all of it.
func (e *testEnv) commit(rel string) {
	e.t.Helper()
	if err := commitAll(e.path(rel), replayGit(e.home), "first"); err != nil {
		e.t.Fatal(err)
	}
}
