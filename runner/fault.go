package runner

import (
	"errors"
	"syscall"
)

// Fault is a failure of the machine bench runs on rather than of the model
// or of bench's logic: a workspace that could not be made or cleaned, or any
// failure for want of a resource (faultErrnos). An episode that meets one
// is lost (record.ErrorFault): it says nothing about the model, and
// --resume redoes it.
type Fault struct{ Err error }

// Error is the underlying error's.
func (f *Fault) Error() string { return f.Err.Error() }

// Unwrap returns the underlying error.
func (f *Fault) Unwrap() error { return f.Err }

// faultErrnos are the errors of a machine out of a resource: its disk
// (full, over quota, read-only, failing), its memory, its file or process
// tables.
var faultErrnos = []syscall.Errno{
	syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EIO,
	syscall.ENOMEM, syscall.EMFILE, syscall.ENFILE, syscall.EAGAIN,
}

// isFault reports whether err is, or was caused by, a Fault or one of
// faultErrnos. A failure bench's logic or the model's code can provoke
// (a grading that finds a file it cannot read) is no fault: it stands.
func isFault(err error) bool {
	var f *Fault
	if errors.As(err, &f) {
		return true
	}
	for _, e := range faultErrnos {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// isNoSpace reports whether err was caused by a full disk (or a quota):
// every further episode would meet it, so the run stops at once.
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
