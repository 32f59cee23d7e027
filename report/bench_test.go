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

// generateEpisodes makes n synthetic episodes (see generateEpisode).
func generateEpisodes(n int) []record.Episode {
	eps := make([]record.Episode, n)
	for i := range eps {
		eps[i] = generateEpisode(i)
	}
	return eps
}

// benchTasks, benchTracks, benchSeqs and benchExits are what generated
// episodes are made of.
var (
	benchTasks  = []string{"leap_year", "parse_date", "slugify", "word_freq"}
	benchTracks = []string{"workflow", "workflow-retry", "agent"}
	benchSeqs   = [][]string{
		nil,
		{"read_file", "run_tests", "edit_file", "run_tests"},
		{"list_files", "read_file", "edit_file", "run_tests"},
		{"read_file", "run_tests", "write_file", "run_tests", "edit_file", "run_tests"},
		{"read_file", "read_file", "run_tests"},
	}
	benchExits = []string{record.ExitDone, record.ExitDone, record.ExitDone, record.ExitMaxTurns, record.ExitTokenBudget, record.ExitError}
)

// generateEpisode makes the i-th synthetic episode, over 4 tasks and 3
// tracks, seeds with one twin each, a handful of tool sequences and exit
// reasons, and twins that sometimes diverge. A passed episode passed all
// of its 5 tests.
func generateEpisode(i int) record.Episode {
	cells := len(benchTasks) * len(benchTracks)
	c := i % cells
	k := i / cells // index within the cell
	seed, repeat := k/2+1, k%2
	h := uint32(i)*2654435761 + 12345 // a cheap deterministic scramble
	steps := []string{fmt.Sprint("s", seed, "a"), fmt.Sprint("s", seed, "b")}
	if repeat == 1 && h%7 == 0 {
		steps[1] = "diverged"
	}
	track := benchTracks[c%len(benchTracks)]
	tools := benchSeqs[0]
	if track == "agent" {
		tools = benchSeqs[1+int(h>>8)%(len(benchSeqs)-1)]
	}
	passed := h%3 != 0
	testsPassed := 5
	if !passed {
		testsPassed = int(h>>2) % 5
	}
	return record.Episode{
		Task: benchTasks[c/len(benchTracks)], Track: track, Seed: seed, Repeat: repeat,
		Passed: passed, TestsPassed: testsPassed, TestsTotal: 5,
		ExitReason: benchExits[int(h>>4)%len(benchExits)], Turns: 1 + int(h>>12)%12,
		ToolCalls: tools, Steps: steps,
		PromptTokens: 500 + int(h>>16)%5000, CompletionTokens: 100 + int(h>>20)%800,
		EstPromptTokens: 480 + int(h>>16)%5000, EstCompletionTokens: 90 + int(h>>20)%800,
	}
}

// BenchmarkReport100k builds the report over 100,000 episodes and renders
// it in every format and as an SVG.
func BenchmarkReport100k(b *testing.B) {
	in := []record.Data{{Run: record.Run{ID: "generated", Model: "m", ModelDigest: "d"}, Episodes: generateEpisodes(100_000)}}
	benchmarkReport(b, func() *Report { return Build(in) })
}

// benchmarkReport times build (reading included, if it reads) and
// rendering, and reports ms/report (wall),
// cpu-ms/report (the process's CPU time, all threads, GC included), the bytes
// allocated per report and the peak live heap, sampled every millisecond
// while it runs (runtime/metrics, no stop-the-world).
func benchmarkReport(b *testing.B, build func() *Report) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stop, peak := samplePeakHeap()
	start, cpuStart := time.Now(), cpuTime()
	for b.Loop() {
		rep := build()
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
	b.ReportMetric(float64(after.HeapSys)/1e6, "MB-heap-sys")
	if rss := maxRSS(); rss > 0 {
		b.ReportMetric(float64(rss)/1e6, "MB-max-rss")
	}
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
