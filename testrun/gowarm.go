package testrun

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/otiai10/copy"

	"bench/internal/flock"
)

// warmed holds, per Go build cache folder, its warm-up done.
var warmed memo[struct{}]

// warmTest is the one test file of the module warmGo builds.
const warmTest = "package warm\n\nimport \"testing\"\n\nfunc TestWarm(t *testing.T) {}\n"

// warmGo builds, once per process and cache, a test binary that imports
// only testing, with goBin and the flags of every Go test run (GoEnv), and
// runs nothing. On a fresh cache that compiles the share of the standard
// library every test binary links: a minute of CPU on a loaded two-core
// machine, which is bench's cost and not the code's, so RunWith does it
// before a run's timeout starts (the first Go episode timed out on it).
// Runs with the same cache wait for it, and so do other processes'
// warm-ups of it (lockCache). With a share (GoStdShare), a fresh cache is
// instead a copy of the share, warmed first: the library is compiled once
// for every kind of cache. A warm-up that fails leaves the work to the
// run's own build.
func warmGo(ctx context.Context, goBin, cache, share string) {
	warmed.get(cache, func() struct{} {
		if share == "" || share == cache || !seed(ctx, goBin, share, cache) {
			warmUp(ctx, goBin, cache)
		}
		return struct{}{}
	})
}

// WarmGoCache warms the Go build cache folder cache as the first Go test
// run of a process does, with the go on PATH, starting it as a copy of
// bench's share of the standard library (GoStdShare) when it is fresh.
func WarmGoCache(ctx context.Context, cache string) {
	if bin, err := exec.LookPath("go"); err == nil {
		warmGo(ctx, bin, cache, GoCacheDir(GoStdShare))
	}
}

// seed warms share and copies it into cache if cache is still empty, in
// the turns of both (cache's first), and reports whether cache holds a
// warm share or was found holding entries already (warmed by another).
// A share that compiled nothing is no seed.
func seed(ctx context.Context, goBin, share, cache string) bool {
	if !isEmpty(cache) {
		return false // an older cache: its warm-up finds it compiled at once
	}
	warmGo(ctx, goBin, share, "")
	if os.MkdirAll(cache, 0o700) != nil {
		return false
	}
	unlock, err := lockCache(ctx, cache)
	if err != nil {
		return false
	}
	defer unlock()
	if !isEmpty(cache) {
		return true // another process seeded or warmed it meanwhile
	}
	unlockShare, err := lockCache(ctx, share)
	if err != nil {
		return false
	}
	defer unlockShare()
	return !isEmpty(share) && copy.Copy(share, cache) == nil
}

// isEmpty reports whether folder holds no entries (or does not exist).
func isEmpty(folder string) bool {
	entries, err := os.ReadDir(folder)
	return err == nil && len(entries) == 0 || errors.Is(err, fs.ErrNotExist)
}

// warmUp is one warm-up of warmGo.
func warmUp(ctx context.Context, goBin, cache string) {
	dir, err := os.MkdirTemp("", "bench-gowarm-")
	if err != nil {
		return
	}
	defer removeAll(dir)
	if os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module warm\n"), 0o600) != nil ||
		os.WriteFile(filepath.Join(dir, "warm_test.go"), []byte(warmTest), 0o600) != nil ||
		os.MkdirAll(cache, 0o700) != nil {
		return
	}
	// One process's warm-up at a time: the next finds the library compiled
	// instead of compiling it too, side by side (as CI's steps, each a
	// process, could on a fresh machine).
	unlock, err := lockCache(ctx, cache)
	if err != nil {
		return
	}
	defer unlock()
	cmd := exec.CommandContext(ctx, goBin, "test", "-exec", "true", "./...")
	cmd.Dir = dir
	cmd.Env = append(append(Environ(dir), "PWD="+dir), GoEnv(cache, dir)...)
	cmd.Run()
}

// lockCache takes the warm-up's turn on cache, a lock on a file beside it
// that other processes' warm-ups take too, and returns what gives it
// back. It waits until the turn is free or ctx ends.
func lockCache(ctx context.Context, cache string) (unlock func(), err error) {
	f, err := os.OpenFile(cache+".warm-lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := flock.Wait(ctx, f, 100*time.Millisecond); err != nil {
		f.Close()
		return nil, err
	}
	return func() { flock.Release(f) }, nil
}
