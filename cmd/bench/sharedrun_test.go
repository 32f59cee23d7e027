package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// sharedRuns holds the runs made once for every test that only reads them,
// removed when the tests end (TestMain).
var sharedRuns struct {
	once   sync.Once
	base   string // the folder that holds them
	oracle string
	err    error
	stderr string
}

// sharedOracleRun returns the folder of one finished oracle run of
// leap_year with every other setting at its default (seed 1), made on first
// use: for tests that only read a run (compare, --calibrate, run.json).
// The caller must not write to it.
func sharedOracleRun(t *testing.T) string {
	t.Helper()
	sharedRuns.once.Do(func() {
		sharedRuns.base, sharedRuns.err = os.MkdirTemp("", "bench-shared-runs-")
		if sharedRuns.err != nil {
			return
		}
		sharedRuns.oracle = filepath.Join(sharedRuns.base, "oracle")
		var out, errb bytes.Buffer
		sharedRuns.err = runContext(context.Background(), []string{"bench", "run", "--tracks", "oracle", "--tasks", "leap_year", "--out", sharedRuns.oracle}, &out, &errb)
		sharedRuns.stderr = errb.String()
	})
	if sharedRuns.err != nil {
		t.Fatalf("the shared oracle run: %v\n%s", sharedRuns.err, sharedRuns.stderr)
	}
	return sharedRuns.oracle
}

// removeSharedRuns removes the shared runs' folder, if one was made.
func removeSharedRuns() {
	if sharedRuns.base != "" {
		os.RemoveAll(sharedRuns.base)
	}
}
