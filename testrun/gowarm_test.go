package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/exefile"
	"bench/sandbox"
)

// fakeWarmGo is a fake go command: in the folder of a warm-up it writes
// "start" and "end" lines to the file it names around a sleep of the
// seconds it is given (a cold build cache compiling the standard library);
// anywhere else it returns at once, having built no test binary.
const fakeWarmGo = `#!/bin/sh
case "$PWD" in
*bench-gowarm-*) echo start >> %[1]q; sleep %[2]s; echo end >> %[1]q ;;
esac
exit 0
`

// writeFakeWarmGo writes fakeWarmGo, sleeping for seconds, and returns it
// and the file it logs to.
func writeFakeWarmGo(t *testing.T, seconds string) (bin, log string) {
	t.Helper()
	bin, log = filepath.Join(t.TempDir(), "go"), filepath.Join(t.TempDir(), "log")
	exefile.Write(t, bin, fmt.Appendf(nil, fakeWarmGo, log, seconds))
	return bin, log
}

// TestGoWarmUpIsNotTheRunsTime: a fresh build cache is warmed once per
// process before the first Go run's timeout starts, so that compiling the
// standard library (a minute on a loaded machine) never times out an
// episode; later runs with the same cache do not warm it again.
func TestGoWarmUpIsNotTheRunsTime(t *testing.T) {
	t.Parallel()
	bin, log := writeFakeWarmGo(t, "2")
	opts := Options{Sandbox: sandbox.Config{Mode: sandbox.Off}, Go: &GoRun{Cache: t.TempDir()}}
	for i := range 2 {
		res, err := RunWith(context.Background(), t.TempDir(), []string{bin, "test", "-json", "./..."}, time.Second, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.TimedOut {
			t.Fatalf("run %d timed out: the warm-up counted against its timeout", i+1)
		}
	}
	data, _ := os.ReadFile(log)
	if n := strings.Count(string(data), "start"); n != 1 {
		t.Errorf("the cache was warmed %d times; want once", n)
	}
}

// TestGoWarmUpsOfOneCacheTakeTurns: two warm-ups of one cache at once (two
// bench processes on a fresh machine, or CI's steps side by side) take
// turns instead of compiling the standard library twice side by side;
// the second then finds it compiled. Each warmUp call stands for a
// process (the memo is per process; the turn is a lock on the cache).
func TestGoWarmUpsOfOneCacheTakeTurns(t *testing.T) {
	t.Parallel()
	bin, log := writeFakeWarmGo(t, "0.5")
	cache := t.TempDir()
	done := make(chan struct{})
	for range 2 {
		go func() {
			warmUp(context.Background(), bin, cache)
			done <- struct{}{}
		}()
	}
	<-done
	<-done
	data, _ := os.ReadFile(log)
	if got := strings.Fields(string(data)); strings.Join(got, " ") != "start end start end" {
		t.Errorf("the warm-ups ran %q; want one after the other (start end start end)", got)
	}
}

// TestGoWarmUpStopsWaitingWhenCancelled: a warm-up waiting for another's
// turn gives up when its context ends (the run was interrupted).
func TestGoWarmUpStopsWaitingWhenCancelled(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	unlock, err := lockCache(context.Background(), cache)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := lockCache(ctx, cache); err == nil {
		t.Fatal("lockCache took a lock another holds")
	}
}

// fakeCompilingGo is a fake go command whose warm-up "compiles": in the
// folder of a warm-up it logs the GOCACHE it was given and writes an
// entry there, as the real one writes the standard library's packages.
const fakeCompilingGo = `#!/bin/sh
case "$PWD" in
*bench-gowarm-*) echo "$GOCACHE" >> %[1]q; mkdir -p "$GOCACHE/0a"; echo compiled > "$GOCACHE/0a/testing-d" ;;
esac
exit 0
`

// TestGoLibraryCompiledOncePerShare: two fresh caches of different kinds
// (grading's and the tracks') with one share compile the standard
// library once, into the share, and each starts as its copy; a cache
// without a share warms itself as before.
func TestGoLibraryCompiledOncePerShare(t *testing.T) {
	t.Parallel()
	bin, log := filepath.Join(t.TempDir(), "go"), filepath.Join(t.TempDir(), "log")
	exefile.Write(t, bin, fmt.Appendf(nil, fakeCompilingGo, log))
	share, grade, tracks, alone := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for _, g := range []*GoRun{{Cache: grade, Share: share}, {Cache: tracks, Share: share}, {Cache: alone}} {
		opts := Options{Sandbox: sandbox.Config{Mode: sandbox.Off}, Go: g}
		if _, err := RunWith(context.Background(), t.TempDir(), []string{bin, "test", "-json", "./..."}, time.Minute, opts); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(g.Cache, "0a", "testing-d")); err != nil || string(b) != "compiled\n" {
			t.Errorf("%s holds %q (%v); want the compiled library", g.Cache, b, err)
		}
	}
	data, _ := os.ReadFile(log)
	if got, want := strings.Fields(string(data)), []string{share, alone}; !slices.Equal(got, want) {
		t.Errorf("the library was compiled in %q; want %q (once into the share, once alone)", got, want)
	}
}

// TestGoEmptyShareIsNoSeed: a share whose warm-up compiled nothing (a go
// that failed) is not copied as if it were warm: the cache warms itself.
func TestGoEmptyShareIsNoSeed(t *testing.T) {
	t.Parallel()
	bin, log := writeFakeWarmGo(t, "0")
	cache := t.TempDir()
	opts := Options{Sandbox: sandbox.Config{Mode: sandbox.Off}, Go: &GoRun{Cache: cache, Share: t.TempDir()}}
	if _, err := RunWith(context.Background(), t.TempDir(), []string{bin, "test", "-json", "./..."}, time.Minute, opts); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(log)
	if n := strings.Count(string(data), "start"); n != 2 {
		t.Errorf("%d warm-ups; want 2 (the share's, which compiled nothing, then the cache's own)", n)
	}
}
