package html

import (
	"io"
	"testing"

	"bench/report"
)

// countingWriter counts the bytes written through it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkWrite1000 renders the page of a generated 1,000-episode run
// (trajectories read from disk included) and reports its size: the target
// is under 10 MB.
func BenchmarkWrite1000(b *testing.B) {
	runs := genRun(b, b.TempDir())
	rep := report.FromData(runs).Report()
	var size int64
	for b.Loop() {
		var c countingWriter
		if err := Write(io.Writer(&c), rep, runs, Options{}); err != nil {
			b.Fatal(err)
		}
		size = c.n
	}
	b.ReportMetric(float64(size), "bytes")
	b.ReportMetric(float64(size)/float64(len(runs[0].Episodes)), "bytes/episode")
}
