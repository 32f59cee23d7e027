package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/sandbox"
)

// fakeSlowColdGo is a fake go command: in the folder of the warm-up it
// takes 2 s (a cold build cache compiling the standard library) and
// counts its calls; anywhere else it returns at once, having built no
// test binary.
const fakeSlowColdGo = `#!/bin/sh
case "$PWD" in
*bench-gowarm-*) echo x >> %q; sleep 2 ;;
esac
exit 0
`

// TestGoWarmUpIsNotTheRunsTime: a fresh build cache is warmed once per
// process before the first Go run's timeout starts, so that compiling the
// standard library (a minute on a loaded machine) never times out an
// episode; later runs with the same cache do not warm it again.
func TestGoWarmUpIsNotTheRunsTime(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "go")
	count := filepath.Join(t.TempDir(), "count")
	if err := os.WriteFile(bin, fmt.Appendf(nil, fakeSlowColdGo, count), 0o755); err != nil {
		t.Fatal(err)
	}
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
	data, _ := os.ReadFile(count)
	if n := strings.Count(string(data), "x"); n != 1 {
		t.Errorf("the cache was warmed %d times; want once", n)
	}
}
