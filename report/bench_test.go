package report

import (
	"io"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"bench/record"
)

// BenchmarkReport100k builds the report over 100,000 synthetic episodes
// read whole (as the page reads a run) and renders it in every format.
func BenchmarkReport100k(b *testing.B) {
	data, err := record.Read(syntheticRun(b, 100_000, false))
	if err != nil {
		b.Fatal(err)
	}
	in := []record.Data{data}
	benchmarkReport(b, func() *Report { return FromData(in).Report() })
}

// benchmarkReport times build (reading included, if it reads) and
// rendering, and reports ms/report (wall),
// cpu-ms/report (the process's CPU time, all threads, GC included), the bytes
// allocated per report and the peak live heap, sampled every millisecond
// while it runs (runtime/metrics, no stop-the-world), which it returns.
func benchmarkReport(b *testing.B, build func() *Report) (peakHeap uint64) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stop, peak := samplePeakHeap()
	start, cpuStart := time.Now(), cpuTime()
	for b.Loop() {
		rep := build()
		for _, write := range []func(io.Writer, *Report) error{WriteText, WriteMarkdown, WriteCSV, WriteJSON} {
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
	return *peak
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
