package report

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"bench/internal/synth"
)

// The benchmarks of reading and reporting a large run read a synthetic
// run of a realistic shape (package synth: 4 tasks × 3 tracks, 10% twins,
// agent episodes of 2 to 25 turns with their steps and tool calls),
// written once per size into a folder of its own. They time what `bench
// report` does: stream the folder into an aggregate, build the report and
// render it in every format. Run each alone (-run '^$' -bench Name), since
// the process's peak RSS (MB-max-rss) is what they are judged by; the
// targets are 200,000 episodes under 150 MB and 1,000,000 under 3 s (and
// 400 MB) on two cores.

// BenchmarkReadAndReport100k reads and reports 100,000 episodes.
func BenchmarkReadAndReport100k(b *testing.B) { benchmarkReadAndReport(b, 100_000) }

// BenchmarkReadAndReport200k is the memory target: a report over 200,000
// realistic episodes under 150 MB of peak RSS (MB-max-rss).
func BenchmarkReadAndReport200k(b *testing.B) { benchmarkReadAndReport(b, 200_000) }

// BenchmarkReadAndReport1M is the time target: a report over 1,000,000
// realistic episodes under 3 s on two cores (ms/report), under 400 MB.
func BenchmarkReadAndReport1M(b *testing.B) { benchmarkReadAndReport(b, 1_000_000) }

// benchmarkReadAndReport writes n synthetic episodes to a run folder once,
// then measures reading and reporting them.
// It reports, besides benchmarkReport's figures, episodes/s (wall) and
// the peak live heap per episode (peak-heap-B/episode).
func benchmarkReadAndReport(b *testing.B, n int) {
	dir := syntheticRun(b, n, false)
	peak := benchmarkReport(b, func() *Report {
		agg, err := Read([]string{dir})
		if err != nil {
			b.Fatal(err)
		}
		if len(agg.eps) != n {
			b.Fatalf("read %d episodes, want %d", len(agg.eps), n)
		}
		return agg.Report()
	})
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "episodes/s")
	b.ReportMetric(float64(peak)/float64(n), "peak-heap-B/episode")
}

// BenchmarkTrajectoryDigests10k reads and reports 10,000 episodes whose
// trajectory files are on disk: the digest of every pass is checked (on
// the decoding goroutines, in parallel), which the larger benchmarks,
// without trajectory files, leave out. us/episode is the wall time per
// episode, digests included.
func BenchmarkTrajectoryDigests10k(b *testing.B) {
	const n = 10_000
	dir := syntheticRun(b, n, true)
	benchmarkReport(b, func() *Report {
		agg, err := Read([]string{dir})
		if err != nil {
			b.Fatal(err)
		}
		return agg.Report()
	})
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "us/episode")
}

// syntheticRuns are the folders written, by size, for the benchmarks of
// one process to share; syntheticBases the temporary folders that hold
// them, which TestMain removes.
var syntheticRuns, syntheticBases sync.Map

// TestMain runs the tests and benchmarks, then removes the synthetic runs.
func TestMain(m *testing.M) {
	code := m.Run()
	syntheticBases.Range(func(base, _ any) bool {
		os.RemoveAll(base.(string))
		return true
	})
	os.Exit(code)
}

// syntheticRun returns a folder holding a synthetic run of n episodes
// (with its trajectory files when trajectories), written on first use in
// a temporary folder the test binary removes when it exits.
func syntheticRun(b *testing.B, n int, trajectories bool) string {
	b.Helper()
	key := [2]any{n, trajectories}
	if dir, ok := syntheticRuns.Load(key); ok {
		return dir.(string)
	}
	base, err := os.MkdirTemp("", "bench-synthetic-")
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(base, "run") // it outlives one call of the benchmark: the calls of growing b.N share it
	syntheticBases.Store(base, true)
	if _, err := synth.Write(dir, n, synth.Options{Seed: 1, Trajectories: trajectories}); err != nil {
		b.Fatal(err)
	}
	syntheticRuns.Store(key, dir)
	return dir
}
