package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/tasks"
	"bench/testrun"
	"bench/testrun/testruntest"
)

// BenchmarkSandboxOverhead is the sandbox's cost per test run with bench
// itself as the helper (this test binary links everything bench does):
// ms-overhead/run, target at most 30 ms.
func BenchmarkSandboxOverhead(b *testing.B) { testruntest.SandboxOverhead(b) }

// floorSeeds is how many seeds of each course task the floor benchmark
// runs: the course's four tasks × 10 = 40 episodes.
const floorSeeds = 10

// BenchmarkGradingFloor measures grading against its floor: each
// iteration runs, in turn (in alternating order), `bench run --tracks
// oracle` over the four course tasks × 10 seeds as a whole process (bench
// built as make build builds it, not this test binary, which links the
// tests' code too and is a larger helper to start), and
// the same 40 test runs done directly (each task's own test command,
// python3 -m unittest, with the same interpreter, on a fresh copy of repo/
// plus solution/, one after another as bench runs them). It reports the
// whole-process wall times (oracle-s, floor-s: medians), their ratio's
// min, median and max (x-floor-*; issue 30 asks for at most 1.15) and the
// median ratio of CPU times, which the machine's other load moves less.
// Run it with -benchtime=7x for seven pairs; a first, untimed, run builds
// bench's caches.
func BenchmarkGradingFloor(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not on PATH")
	}
	py = testrun.Interpreter(py)
	course, err := tasks.Load(tasks.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	exe := testsupport.NeedBench(b)
	oracle(b, exe) // verification and bytecode caches, untimed
	var ratios, cpuRatios, oracles, floors []float64
	b.ResetTimer()
	for i := range b.N {
		var o, f timed
		if i%2 == 0 { // alternate, so neither always runs after the other
			o, f = oracle(b, exe), floor(b, py, course)
		} else {
			f, o = floor(b, py, course), oracle(b, exe)
		}
		oracles, floors = append(oracles, o.wall), append(floors, f.wall)
		ratios, cpuRatios = append(ratios, o.wall/f.wall), append(cpuRatios, o.cpu/f.cpu)
		b.Logf("oracle %.2f s (CPU %.2f s), floor %.2f s (CPU %.2f s): %.3f× wall, %.3f× CPU", o.wall, o.cpu, f.wall, f.cpu, o.wall/f.wall, o.cpu/f.cpu)
	}
	b.StopTimer()
	slices.Sort(ratios)
	b.ReportMetric(ratios[0], "x-floor-min")
	b.ReportMetric(median(ratios), "x-floor-median")
	b.ReportMetric(ratios[len(ratios)-1], "x-floor-max")
	b.ReportMetric(median(cpuRatios), "x-floor-cpu-median")
	b.ReportMetric(median(oracles), "oracle-s")
	b.ReportMetric(median(floors), "floor-s")
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average %s", strings.TrimSpace(string(load)))
	}
}

// timed is one side of a pair: its wall time, and the CPU time of its processes.
type timed struct{ wall, cpu float64 }

// cpuOf is the user and system time of a finished process and the
// children it waited for.
func cpuOf(cmd *exec.Cmd) float64 {
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
}

// oracle runs the oracle over the course tasks × floorSeeds with the
// bench binary exe.
func oracle(b *testing.B, exe string) timed {
	b.Helper()
	var seeds []string
	for s := 1; s <= floorSeeds; s++ {
		seeds = append(seeds, strconv.Itoa(s))
	}
	cmd := exec.Command(exe, "run", "--tracks", "oracle", "--seeds", strings.Join(seeds, ","), "--out", filepath.Join(b.TempDir(), "run"))
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil || strings.Count(string(out), ": passed (") != 4*floorSeeds {
		b.Fatalf("bench run --tracks oracle: %v\n%s", err, out)
	}
	return timed{time.Since(start).Seconds(), cpuOf(cmd)}
}

// floor runs each course task's test command floorSeeds times, directly
// with the interpreter py, each on a fresh copy of repo/ plus solution/.
func floor(b *testing.B, py string, course []tasks.Task) timed {
	b.Helper()
	var cpu float64
	start := time.Now()
	for range floorSeeds {
		for _, t := range course {
			dir, err := os.MkdirTemp("", "bench-floor-")
			if err != nil {
				b.Fatal(err)
			}
			if err := t.CopyDir("repo", dir); err != nil {
				b.Fatal(err)
			}
			if err := t.CopyDir("solution", dir); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(py, t.TestCmd[1:]...)
			cmd.Dir, cmd.Env = dir, testrun.Environ(dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", t.Name, err, out)
			}
			cpu += cpuOf(cmd)
			os.RemoveAll(dir)
		}
	}
	return timed{time.Since(start).Seconds(), cpu}
}

// median is the middle of sorted-or-not xs (the mean of the two middle
// ones for an even count).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
