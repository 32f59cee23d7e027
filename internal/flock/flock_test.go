package flock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWaitTakesAFreeLockAndGivesUpOnAHeldOne takes a lock, fails to take
// it through a second open file until the context ends, and takes it once
// the first is released.
func TestWaitTakesAFreeLockAndGivesUpOnAHeldOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	first, second := open(), open()
	defer second.Close()
	if err := Wait(context.Background(), first, time.Millisecond); err != nil {
		t.Fatalf("a free lock: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := Wait(ctx, second, 5*time.Millisecond); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("a held lock, until the context ended: %v, want EWOULDBLOCK", err)
	}
	Release(first)
	if err := Wait(context.Background(), second, time.Millisecond); err != nil {
		t.Fatalf("after Release: %v", err)
	}
}
