//go:build unix

package report

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used, which
// unlike wall time does not grow when other processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
