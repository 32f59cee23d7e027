// Package recordtest writes run folders for tests, as bench run's recorder
// writes them. It imports record alone, so that a test binary that uses it
// links nothing else of bench.
package recordtest

import (
	"os"
	"path/filepath"
	"testing"

	"bench/record"
)

// Write creates the run folder dir for run (its parent folders too) and
// appends eps to it in order, as the recorder does; any failure ends the
// test.
func Write(t testing.TB, dir string, run record.Run, eps ...record.Episode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := record.Create(dir, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range eps {
		if err := w.Append(ep); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
