package testrun

import (
	"os"
	"syscall"
	"testing"

	"bench/sandbox"
)

// TestMain lets the test binary serve as the sandbox helper.
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// syscallKill kills pid, for cleaning up after a check.
func syscallKill(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
