// Package testruntest holds benchmark bodies shared by the packages that
// run tests, so that each measures with its own executable as the
// sandbox helper.
package testruntest

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"bench/sandbox"
	"bench/testrun"
)

// SandboxOverhead is a benchmark body: it runs `true` unsandboxed and
// sandboxed (mode Auto), one after the other on each round so that the
// machine's load weighs on both alike, and reports the mean wall time of
// each (ms/run-off, ms/run-sandboxed) and their difference
// (ms-overhead/run). The sandbox helper is the running executable, so a
// benchmark in package main of bench measures bench's own helper.
func SandboxOverhead(b *testing.B) {
	bin, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	dir := b.TempDir()
	off := testrun.Options{Sandbox: sandbox.Config{Mode: sandbox.Off}}
	on := testrun.Options{Sandbox: sandbox.Config{Mode: sandbox.Auto}}
	var plain, boxed time.Duration
	for b.Loop() {
		plain += timeRun(b, dir, bin, off)
		boxed += timeRun(b, dir, bin, on)
	}
	n := float64(b.N)
	b.ReportMetric(ms(plain)/n, "ms/run-off")
	b.ReportMetric(ms(boxed)/n, "ms/run-sandboxed")
	b.ReportMetric(ms(boxed-plain)/n, "ms-overhead/run")
}

// timeRun is the wall time of one RunWith of bin, setup and clean-up included.
func timeRun(b *testing.B, dir, bin string, opts testrun.Options) time.Duration {
	start := time.Now()
	res, err := testrun.RunWith(context.Background(), dir, []string{bin}, time.Minute, opts)
	if err != nil || res.ExitCode != 0 {
		b.Fatalf("%v\n%s", err, res.Output)
	}
	return time.Since(start)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
