package testsupport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// ModuleRoot is the folder holding go.mod, at or above the working folder.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working folder")
		}
		dir = parent
	}
}

// Bench is the path of the bench binary built from the module the test
// runs in, built on the first call: see BuildBench.
var Bench = onModule(BuildBench)

// NeedBench returns Bench's binary, or fails t when it cannot be built. It
// also consults the module's folders (ConsultModule), so that t's package
// result is not served from Go's test cache after a source of bench changed.
func NeedBench(t testing.TB) string {
	t.Helper()
	exe, err := Bench()
	if err != nil {
		t.Fatal(err)
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ConsultModule(root)
	return exe
}

// Helper is the path of the sandbox's helper built on its own
// (bench-sandbox) from the module the test runs in, built on the first
// call: see BuildHelper.
var Helper = onModule(BuildHelper)

// onModule is build run once, on the first call, on the module the test
// runs in.
func onModule(build func(root string) (string, error)) func() (string, error) {
	return sync.OnceValues(func() (string, error) {
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		return build(root)
	})
}

// NeedHelper returns Helper's binary, or fails t when it cannot be built.
// Unlike NeedBench it consults no folder: what the helper does is package
// sandbox/internal/helper, which every caller links, so Go's test cache
// already keys on it.
func NeedHelper(t testing.TB) string {
	t.Helper()
	exe, err := Helper()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// BuildBench builds ./cmd/bench of the module at root, without cgo, into
// bin/test, with the sandbox's helper beside it (BuildHelper), as make
// build does, and returns the binary's path. The binary has one path per
// module, outside any one test binary's folders, so the test packages
// that run bench share it: go build leaves an up-to-date target alone (no
// link when nothing changed), and a lock file beside it makes two
// packages' builds take turns, so the second finds the first's binary up
// to date.
func BuildBench(root string) (string, error) {
	if _, err := BuildHelper(root); err != nil {
		return "", err
	}
	return build(root, "./cmd/bench", "bench")
}

// BuildHelper builds the sandbox's helper on its own
// (./sandbox/cmd/bench-sandbox) into bin/test, as BuildBench builds bench,
// and returns its path.
func BuildHelper(root string) (string, error) {
	return build(root, "./sandbox/cmd/bench-sandbox", "bench-sandbox")
}

// build builds the command pkg of the module at root, static, into
// bin/test/name, taking turns with other packages' builds there.
func build(root, pkg, name string) (string, error) {
	dir, err := benchDir(root)
	if err != nil {
		return "", err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("locking %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too
	exe := filepath.Join(dir, name)
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", exe, pkg)
	// Static, as make build builds it (the sandbox starts its helper twice
	// at every test run, and a static binary starts faster), whatever the
	// caller's CGO_ENABLED.
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", name, err, out)
	}
	return exe, nil
}

// benchDir is the folder of root's built bench, made if missing: bin/test
// in the module, beside make build's bin/bench (git ignores bin/), so that
// it goes with the clone.
func benchDir(root string) (string, error) {
	dir := filepath.Join(root, "bin", "test")
	return dir, os.MkdirAll(dir, 0o755)
}

// ConsultModule opens every folder of the module at root but .git, bin
// (what make build and BuildBench write) and the run folders in results
// (bench's default output folder) from inside a test. Go's test
// cache keys a package's result on the files its tests opened, and a
// folder's key holds the size and time of each entry: so a package whose
// tests run the built bench, which their test binary does not link, is
// tested again after any file of the module changed. (It must run inside
// a test: Go starts recording after TestMain's set-up.)
func ConsultModule(root string) {
	runs, bin := filepath.Join(root, "results"), filepath.Join(root, "bin")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error { //nolint:errcheck // a folder that cannot be read is not consulted
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" || path == bin || filepath.Dir(path) == runs {
			return filepath.SkipDir
		}
		if f, err := os.Open(path); err == nil {
			f.Close()
		}
		return nil
	})
}
