package testrun

import (
	"sync"
	"syscall"
	"time"
)

// live holds the process groups of the test runs under way, and the
// scratch folders in use (workspaces, grading copies, the runs' temporary
// folders).
var live = struct {
	sync.Mutex
	groups  map[int]bool
	scratch map[string]bool
}{groups: map[int]bool{}, scratch: map[string]bool{}}

// register records the process group led by pid until unregister.
func register(pid int) {
	live.Lock()
	defer live.Unlock()
	live.groups[pid] = true
}

func unregister(pid int) {
	live.Lock()
	defer live.Unlock()
	delete(live.groups, pid)
}

// Scratch records dir as a folder in use that KillAll removes, until the
// returned forget is called (when the owner removed or kept it).
func Scratch(dir string) (forget func()) {
	live.Lock()
	defer live.Unlock()
	live.scratch[dir] = true
	return func() {
		live.Lock()
		defer live.Unlock()
		delete(live.scratch, dir)
	}
}

// KillAll kills the process group of every test run under way, then
// removes every scratch folder still in use. A process about to exit
// without waiting for its test runs (bench run on a second Ctrl-C) calls
// it so that no model-written code, and no copy of it, outlives bench.
func KillAll() {
	live.Lock()
	defer live.Unlock()
	for pid := range live.groups {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
	for dir := range live.scratch {
		removeDying(dir)
	}
}

// removeDying removes dir, trying again for a moment while the processes
// just killed may still be writing there.
func removeDying(dir string) {
	for range 5 {
		if removeAll(dir) == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
