package output

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/synth"
	"bench/report"
)

// TestCompare: two synthetic runs of the same plan compare and the text
// names them; a bad format is refused before any folder is read, and a
// run compared with nothing in common is Incomparable.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for i, d := range []string{a, b} {
		if _, err := synth.Write(d, 60, synth.Options{Seed: uint64(i + 1), ID: filepath.Base(d)}); err != nil {
			t.Fatal(err)
		}
	}
	var out, warn strings.Builder
	o := CompareOptions{CompareOptions: report.CompareOptions{Alpha: report.Alpha}, Format: "text"}
	d, err := Compare(&out, &warn, a, b, o)
	if err != nil || d != nil || out.Len() == 0 {
		t.Fatalf("decision %v, err %v:\n%s", d, err, out.String())
	}
	o.Format = "html"
	if _, err := Compare(&out, &warn, filepath.Join(dir, "none"), b, o); err == nil || !strings.Contains(err.Error(), "unknown --format") {
		t.Errorf("html: %v", err)
	}
	o.Format = "text"
	var bad *Incomparable
	if _, err := Compare(&out, &warn, a, filepath.Join(dir, "none"), o); err == nil || errors.As(err, &bad) {
		t.Errorf("a missing folder is a read error, not Incomparable: %v", err)
	}
}
