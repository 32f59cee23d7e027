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
// folder once, then times record.Read plus building and rendering the
// report in every format, as `bench report` does.
func BenchmarkReadAndReport100k(b *testing.B) {
	dir := b.TempDir()
	writeGeneratedRun(b, dir, 100_000)
	benchmarkReport(b, func() []record.Data {
		data, err := record.Read(dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(data.Episodes) != 100_000 || len(data.Warnings) != 0 {
			b.Fatalf("read %d episodes, warnings %v", len(data.Episodes), data.Warnings)
		}
		return []record.Data{data}
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
	for _, ep := range generateEpisodes(n) {
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
