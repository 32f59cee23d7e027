package sandbox

import (
	"runtime/metrics"
	"sync/atomic"
)

// twoStagesFrom is the Go memory a caller holds from which the helper
// enters the namespaces itself. Cloned into them by the caller (one
// stage), the helper is forked: the kernel copies the caller's page
// tables and each later write of the caller's faults, hundreds of ms of
// CPU per spawn from 64 MB on a virtual machine. Started plainly (two
// stages), it is vforked, and pays instead for a second start of itself:
// about 25 ms of CPU for bench, which pays from about 5 MB written: 8 MB
// is about twice what a bare Go process holds (docs/SANDBOX.md).
const twoStagesFrom = 8 << 20

// forcedStages, when 1 or 2, is the number of stages every spawn uses
// (tests set it to test each path); 0 decides by the caller's memory.
var forcedStages atomic.Int32

// twoStages reports whether the helper enters the namespaces itself.
func twoStages() bool {
	switch forcedStages.Load() {
	case 1:
		return false
	case 2:
		return true
	}
	return stagesFor(goMemory(), raceEnabled, chosenHelper().separate) == 2
}

// stagesFor is the number of stages for a caller holding mem bytes of Go
// memory, built with -race or not, whose helper is built separately or is
// the caller itself. A separately built helper always takes two: a second
// start of it costs less than a fork-like clone of even a bare Go process.
// A caller that is its own helper and was built with -race takes one: its
// start maps the race detector's shadow memory, which made a second start
// cost more than any fork saved (runner's tests under -race: 267 s with
// two, 32 s with one).
func stagesFor(mem uint64, race, separate bool) int {
	if separate {
		return 2
	}
	if race || mem < twoStagesFrom {
		return 1
	}
	return 2
}

// goMemory is the memory the Go runtime holds and has not given back.
func goMemory() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}
