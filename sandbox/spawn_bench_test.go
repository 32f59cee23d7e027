package sandbox

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// heapMB is the live heap BenchmarkSandboxedSpawn spawns from, as the
// test binaries and `bench run` hold one.
const heapMB = 64

// BenchmarkSandboxedSpawn starts a trivial command (`true`) from a
// process holding a 64 MB live heap, which it writes, every page, between
// spawns as a working process does, and reports the spawner's own CPU per
// spawn (ms-self-cpu/spawn: user and system time from
// getrusage(RUSAGE_SELF)): a fork-like clone makes the kernel copy the
// page tables and write-protect every page, and each later write then
// faults. "off" spawns unsandboxed (the floor: vfork), "on" sandboxed,
// "on-one-stage" sandboxed as before the helper entered the namespaces.
// ms-child-cpu/spawn is the CPU of the spawned processes.
func BenchmarkSandboxedSpawn(b *testing.B) {
	bin, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	heap := make([]byte, heapMB<<20)
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			spawnLoop(b, v, func() *exec.Cmd {
				touch(heap)
				return exec.Command(bin)
			}, b.TempDir())
		})
	}
	runtime.KeepAlive(heap)
}

// variant is a way of starting a command: unsandboxed, sandboxed, or
// sandboxed as before the helper entered the namespaces itself (the
// caller cloned the helper into them: oneStage).
type variant struct {
	name   string
	mode   Mode
	stages int32 // forcedStages while it runs
}

var variants = []variant{{"off", Off, 0}, {"on", On, 2}, {"on-one-stage", On, 1}}

// BenchmarkSandboxedPython starts `python3 -c pass` (the interpreter
// itself, not a version manager's shim) sandboxed from this small process:
// ms/run is the end-to-end wall time of a sandboxed interpreter start.
func BenchmarkSandboxedPython(b *testing.B) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		b.Skip("python3 is not on PATH")
	}
	py := strings.TrimSpace(string(out))
	dir := b.TempDir()
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			spawnLoop(b, v, func() *exec.Cmd {
				cmd := exec.Command(py, "-c", "pass")
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
				return cmd
			}, dir, Toolchain(py)...)
		})
	}
}

// spawnLoop runs the commands newCmd makes, started as v says in dir
// (with the read-only folders ro), b.N times, and reports wall time and
// CPU per run.
func spawnLoop(b *testing.B, v variant, newCmd func() *exec.Cmd, dir string, ro ...string) {
	if _, err := Plan(Config{Mode: On}); err != nil {
		b.Skip(err)
	}
	forcedStages.Store(v.stages)
	defer forcedStages.Store(0)
	self0, child0 := cpu(syscall.RUSAGE_SELF), cpu(syscall.RUSAGE_CHILDREN)
	start := time.Now()
	for b.Loop() {
		cmd := newCmd()
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if _, err := Apply(cmd, Config{Mode: v.mode}, Spec{Dir: dir, ReadOnly: ro}); err != nil {
			b.Fatal(err)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/n, "ms/run")
	b.ReportMetric(float64((cpu(syscall.RUSAGE_SELF)-self0).Microseconds())/1000/n, "ms-self-cpu/spawn")
	b.ReportMetric(float64((cpu(syscall.RUSAGE_CHILDREN)-child0).Microseconds())/1000/n, "ms-child-cpu/spawn")
}

// cpu is the user and system time getrusage reports for who.
func cpu(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// touch writes every page of heap: after a fork-like clone, each write
// faults once.
func touch(heap []byte) {
	for i := 0; i < len(heap); i += os.Getpagesize() {
		heap[i]++
	}
}
