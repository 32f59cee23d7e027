// Package exefile writes the executables that tests write and then run (a
// fake go, sbatch or interpreter), so that a parallel test's fork cannot
// make them fail to start.
//
// A file open for writing cannot be executed ("text file busy", ETXTBSY).
// Go opens files close-on-exec, but a child forked by another goroutine
// holds a copy of every descriptor until it execs; a script written while
// a parallel test starts a process may stay busy for a moment after it is
// closed, and running it fails then. Every fork in a Go process holds
// syscall.ForkLock for writing, so a file written under its read lock is
// never in a child's copy.
package exefile

import (
	"io"
	"os"
	"syscall"
	"testing"
)

// Write writes data to path, mode 0o755, with no fork of this process
// while the file is open, and fails the test if it cannot.
func Write(t testing.TB, path string, data []byte) {
	t.Helper()
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// Copy copies the file src to dst, mode 0o755, as Write writes.
func Copy(t testing.TB, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}
