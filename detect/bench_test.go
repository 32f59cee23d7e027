package detect

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// bigTree builds, once per benchmark run, a git repository of 100,000
// non-code files in 100 folders of 1,000 each and no project marker, so the
// code scan must give up on its bound.
func bigTree(b *testing.B) string {
	b.Helper()
	root := filepath.Join(b.TempDir(), "f1", "f2", "f3", "f4", "f5", "f6", "big")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	for d := 0; d < 100; d++ {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 1000; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%04d.txt", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}

// BenchmarkDetectHugeTree measures one decision on the 100,000-file tree:
// the bounded scan keeps it independent of the tree's size.
func BenchmarkDetectHugeTree(b *testing.B) {
	root := bigTree(b)
	b.Setenv("HOME", b.TempDir())
	b.Setenv("TMPDIR", b.TempDir())
	scanned := hasCodeFiles(root).seen
	b.ResetTimer()
	for b.Loop() {
		d, err := Detect(root, "auto", "cli")
		if err != nil || d.Profile != ProfileGeneral {
			b.Fatalf("%v %+v", err, d)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/decision")
	b.ReportMetric(float64(scanned), "entries/decision")
}
