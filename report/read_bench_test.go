package report

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"bench/record"
)

// BenchmarkReadAndReport100k writes 100,000 generated episodes to a run
// folder once, then times record.ReadOutcomes plus building and rendering
// the report in every format, as `bench report` does.
func BenchmarkReadAndReport100k(b *testing.B) { benchmarkReadAndReport(b, 100_000) }

// BenchmarkReadAndReport200k is the memory target of issue 9: a report over
// 200,000 episodes under 150 MB peak RSS (MB-max-rss; run it alone, -run
// with no test, since the process's peak counts).
func BenchmarkReadAndReport200k(b *testing.B) { benchmarkReadAndReport(b, 200_000) }

// BenchmarkReadAndReport1M is the time target of issue 9: a report over
// 1,000,000 episodes under 3 s on two cores (ms/report).
func BenchmarkReadAndReport1M(b *testing.B) { benchmarkReadAndReport(b, 1_000_000) }

// benchmarkReadAndReport writes n generated episodes to a run folder once,
// then measures reading and reporting them.
func benchmarkReadAndReport(b *testing.B, n int) {
	dir := b.TempDir()
	writeGeneratedRun(b, dir, n)
	benchmarkReport(b, func() *Report {
		agg, err := Read([]string{dir})
		if err != nil {
			b.Fatal(err)
		}
		if len(agg.eps) != n || len(agg.Warnings()) != 0 {
			b.Fatalf("read %d episodes, warnings %v", len(agg.eps), agg.Warnings())
		}
		return agg.Report()
	})
}

// writeGeneratedRun writes run.json and an episodes.jsonl of n generated
// episodes into dir.
func writeGeneratedRun(b *testing.B, dir string, n int) {
	b.Helper()
	run := record.Run{Format: record.FormatVersion, BenchVersion: "synthetic", ID: "generated", Model: "m", ModelDigest: "d"}
	raw, err := json.Marshal(run)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), raw, 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "episodes.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range n {
		ep := generateEpisode(i)
		ep.Format, ep.Run = record.FormatVersion, run.ID
		if err := enc.Encode(ep); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}
