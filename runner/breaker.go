package runner

import (
	"fmt"

	"bench/record"
)

// BreakerThreshold is how many episodes in a row may be lost to the
// infrastructure (a server gone, timing out, failing) before a run stops
// early: past it, every further episode would be lost too.
const BreakerThreshold = 3

// StopError is returned by RunPool when the run stopped early: Lost episodes
// in a row were lost to the infrastructure, the last one as Last says; or
// one answer said that the setup is wrong (Last.ErrorKind is
// record.ErrorRefused), which stops the run at once. The run is not
// finished: --resume (Resume) redoes the lost episodes and runs the rest.
//
// Faults of the machine (record.ErrorFault) count apart from the servers':
// BreakerThreshold in a row stop the run; a full disk (NoSpace) stops it at
// once.
type StopError struct {
	Lost    int
	Last    record.Episode
	NoSpace bool // the last episode met a full disk
}

// Error says why the run stopped, in one line.
func (e *StopError) Error() string {
	last := fmt.Sprintf("%s, %s: %s", e.Last.Key(), e.Last.ErrorKind, e.Last.ErrorLine())
	switch {
	case e.Refused():
		return "stopped: the model server refused the run's requests, and every further episode would meet the same (" + last + ")"
	case e.NoSpace:
		return "stopped: a disk is full, and every further episode would be lost to it (" + last + ")"
	case e.Last.ErrorKind == record.ErrorFault && e.Lost == 1:
		return "stopped: an episode was lost to a fault of this machine (" + last + ")"
	case e.Last.ErrorKind == record.ErrorFault:
		return fmt.Sprintf("stopped early: %d episodes in a row were lost to faults of this machine (last: %s)", e.Lost, last)
	}
	return fmt.Sprintf("stopped early: %d episodes in a row were lost to the model server (last: %s)", e.Lost, last)
}

// Refused reports whether the run stopped because the server refused a
// request for a reason of the setup (credentials, the model, an option).
func (e *StopError) Refused() bool { return e.Last.ErrorKind == record.ErrorRefused }

// Remedy says, in a few words, when the run can be resumed.
func (e *StopError) Remedy() string {
	switch {
	case e.Refused():
		return "Fix what the message says"
	case e.NoSpace:
		return "Once there is space again"
	case e.Last.ErrorKind == record.ErrorFault:
		return "Once the fault is mended"
	}
	return "When the server is back"
}

// stopsAtOnce reports whether an episode's failure stops the run at
// once: the server refused the request for a reason of the setup, which
// no other episode escapes.
func stopsAtOnce(ep record.Episode) bool { return ep.ErrorKind == record.ErrorRefused }
