package testrun

import (
	"sync"
	"syscall"
)

// live holds the process groups of the test runs under way.
var live = struct {
	sync.Mutex
	groups map[int]bool
}{groups: map[int]bool{}}

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

// KillAll kills the process group of every test run under way. A process
// about to exit without waiting for its test runs (bench run on a second
// Ctrl-C) calls it so that no model-written code outlives bench.
func KillAll() {
	live.Lock()
	defer live.Unlock()
	for pid := range live.groups {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
}
