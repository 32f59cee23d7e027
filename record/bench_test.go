package record

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkAppend measures one synced episode line.
func BenchmarkAppend(b *testing.B) {
	w, err := Create(b.TempDir(), sampleRun())
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ep := sampleEpisode(1)
	start := time.Now()
	for b.Loop() {
		if err := w.Append(ep); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "lines/s")
}

// BenchmarkRecord measures one synced trajectory event.
func BenchmarkRecord(b *testing.B) {
	w, err := Create(b.TempDir(), sampleRun())
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	tr, err := w.Trajectory("leap_year", "agent", 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	ev := Event{Kind: EventToolResult, Tool: "read_file", Result: "def is_leap(year):\n    return year % 4 == 0\n"}
	for b.Loop() {
		tr.Record(ev)
	}
	if err := tr.Err(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRead100k measures reading a run of 100,000 episodes, the size
// `bench report` must handle in under 2 s.
func BenchmarkRead100k(b *testing.B) {
	benchmarkRead(b, func(dir string) (int, any, error) {
		data, err := Read(dir)
		return len(data.Episodes), data, err
	})
}

// BenchmarkScan100k measures streaming the same run, as `bench report`
// reads it (nothing is kept).
func BenchmarkScan100k(b *testing.B) {
	benchmarkRead(b, func(dir string) (int, any, error) {
		f, err := OpenFolder(dir)
		if err != nil {
			return 0, nil, err
		}
		n := 0
		_, err = f.Scan(func(l *Line) error {
			if !l.Replaces {
				n++
			}
			return nil
		})
		return n, nil, err
	})
}

// benchmarkRead writes a run of 100,000 episodes and measures read on it:
// ns/episode and the live heap it holds (MB-live).
func benchmarkRead(b *testing.B, read func(dir string) (int, any, error)) {
	const n = 100_000
	dir := b.TempDir()
	w, err := Create(dir, sampleRun())
	if err != nil {
		b.Fatal(err)
	}
	// Write without a sync per line: this is setup, not what is measured.
	for i := range n {
		ep := sampleEpisode(i)
		ep.Format, ep.Run = FormatVersion, "run-1"
		line, _ := jsonLine(ep)
		if _, err := w.eps.Write(line); err != nil {
			b.Fatal(err)
		}
	}
	w.Close()
	var live uint64
	b.ResetTimer()
	for b.Loop() {
		got, data, err := read(dir)
		if err != nil || got != n {
			b.Fatalf("%d episodes, err %v", got, err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = max(live, ms.HeapAlloc)
		runtime.KeepAlive(data)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/episode")
	b.ReportMetric(float64(live)/(1<<20), "MB-live")
}
