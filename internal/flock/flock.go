// Package flock takes and gives back exclusive flocks on open files, for
// the locks that processes of bench take turns on: a run folder's writer
// (package record) and the warm-up of a Go build cache (package testrun).
package flock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// Wait takes f's exclusive flock, trying again every poll while another
// open file holds it, until ctx ends; it then returns that holder's
// syscall.EWOULDBLOCK. Any other failure is returned at once.
func Wait(ctx context.Context, f *os.File, poll time.Duration) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(poll):
		}
	}
}

// Release gives back f's flock and closes f. The flock is released
// explicitly first: it belongs to the open file, which a process forked
// meanwhile (to run a test) shares until it execs, and LOCK_UN releases it
// for every copy, where Close would leave the fork holding it.
func Release(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}
