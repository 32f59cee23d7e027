package report

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"bench/record"
)

// generateEpisodes makes n synthetic episodes over 4 tasks and 3 tracks,
// seeds with one twin each, a handful of tool sequences and exit reasons,
// and twins that sometimes diverge.
func generateEpisodes(n int) []record.Episode {
	tasks := []string{"leap_year", "parse_date", "slugify", "word_freq"}
	tracks := []string{"workflow", "workflow-retry", "agent"}
	seqs := [][]string{
		nil,
		{"read_file", "run_tests", "edit_file", "run_tests"},
		{"list_files", "read_file", "edit_file", "run_tests"},
		{"read_file", "run_tests", "write_file", "run_tests", "edit_file", "run_tests"},
		{"read_file", "read_file", "run_tests"},
	}
	exits := []string{record.ExitDone, record.ExitDone, record.ExitDone, record.ExitMaxTurns, record.ExitTokenBudget, record.ExitError}
	eps := make([]record.Episode, n)
	cells := len(tasks) * len(tracks)
	for i := range eps {
		c := i % cells
		k := i / cells // index within the cell
		seed, repeat := k/2+1, k%2
		h := uint32(i)*2654435761 + 12345 // a cheap deterministic scramble
		steps := []string{fmt.Sprint("s", seed, "a"), fmt.Sprint("s", seed, "b")}
		if repeat == 1 && h%7 == 0 {
			steps[1] = "diverged"
		}
		track := tracks[c%len(tracks)]
		tools := seqs[0]
		if track == "agent" {
			tools = seqs[1+int(h>>8)%(len(seqs)-1)]
		}
		eps[i] = record.Episode{
			Task: tasks[c/len(tracks)], Track: track, Seed: seed, Repeat: repeat,
			Passed: h%3 != 0, ExitReason: exits[int(h>>4)%len(exits)], Turns: 1 + int(h>>12)%12,
			ToolCalls: tools, Steps: steps,
			PromptTokens: 500 + int(h>>16)%5000, CompletionTokens: 100 + int(h>>20)%800,
			EstPromptTokens: 480 + int(h>>16)%5000, EstCompletionTokens: 90 + int(h>>20)%800,
		}
	}
	return eps
}

// BenchmarkReport100k builds the report over 100,000 episodes and renders
// it in every format and as an SVG.
func BenchmarkReport100k(b *testing.B) {
	in := []record.Data{{Run: record.Run{ID: "generated", Model: "m", ModelDigest: "d"}, Episodes: generateEpisodes(100_000)}}
	benchmarkReport(b, func() []record.Data { return in })
}

// benchmarkReport times load+build+render and reports ms/report (wall),
// cpu-ms/report (the process's CPU time, all threads, GC included), the bytes
// allocated per report and the peak live heap, sampled every millisecond
// while it runs (runtime/metrics, no stop-the-world).
func benchmarkReport(b *testing.B, load func() []record.Data) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stop, peak := samplePeakHeap()
	start, cpuStart := time.Now(), cpuTime()
	for b.Loop() {
		rep := Build(load())
		for _, write := range []func(io.Writer, *Report) error{WriteText, WriteMarkdown, WriteCSV, WriteJSON, WriteSVG} {
			if err := write(io.Discard, rep); err != nil {
				b.Fatal(err)
			}
		}
	}
	elapsed, cpu := time.Since(start), cpuTime()-cpuStart
	stop()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(elapsed.Milliseconds())/float64(b.N), "ms/report")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/report")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/1e6, "MB-alloc/report")
	b.ReportMetric(float64(*peak)/1e6, "MB-peak-heap")
}

// samplePeakHeap samples the bytes of live and not yet swept heap objects
// every millisecond until stop is called, keeping the maximum in *peak.
func samplePeakHeap() (stop func(), peak *uint64) {
	peak = new(uint64)
	done := make(chan struct{})
	finished := make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			*peak = max(*peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }, peak
}
