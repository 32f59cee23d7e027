package record

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"bench/internal/flock"
)

// TestCloseLetsGoOfACopiedLock: a copy of the lock's open file (what a
// process forked to run a test holds until it execs) does not keep a
// closed writer's folder locked; the control shows that closing the file
// alone would have left it locked.
func TestCloseLetsGoOfACopiedLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	w, err := Create(dir, sampleRun())
	if err != nil {
		t.Fatal(err)
	}
	fork, err := syscall.Dup(int(w.lock.Fd())) // shares the open file, as a fork does
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fork)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	other, err := Lock(dir)
	if err != nil {
		t.Fatalf("after Close, with a copy of the lock still open: %v", err)
	}
	flock.Release(other)

	held, err := Lock(dir) // the control: a plain Close, with a copy open
	if err != nil {
		t.Fatal(err)
	}
	dup, err := syscall.Dup(int(held.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(dup)
	held.Close()
	var locked *LockedError
	if _, err := Lock(dir); !errors.As(err, &locked) {
		t.Errorf("control: a plain Close with a copy open let go of the lock (%v); the test cannot fail", err)
	}
}
