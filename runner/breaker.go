package runner

import (
	"fmt"

	"bench/record"
)

// BreakerThreshold is how many episodes in a row may be lost to the
// infrastructure (a server gone, timing out, failing) before a run stops
// early: past it, every further episode would be lost too.
const BreakerThreshold = 3

// StopError is returned by Run when its circuit breaker stopped the run:
// Lost episodes in a row were lost to the infrastructure, the last one as
// Last says. The run is not finished: --resume (Resume) redoes the lost
// episodes and runs the rest.
type StopError struct {
	Lost int
	Last record.Episode
}

// Error says why the run stopped, in one line.
func (e *StopError) Error() string {
	return fmt.Sprintf("stopped early: %d episodes in a row were lost to the model server (last: %s, %s: %s)",
		e.Lost, e.Last.Key(), e.Last.ErrorKind, firstLine(e.Last.Error))
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
