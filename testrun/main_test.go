package testrun

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// parentEnv, when set to a folder, makes the test binary a stand-in for
// bench: it runs a forkSleeper test in that folder and waits to be killed.
const parentEnv = "BENCH_TESTRUN_FAKE_PARENT_DIR"

// TestMain lets the test binary serve as the fake parent of
// TestKill9LeavesNoTestProcess (the sandbox helper's init function has
// already served the helper).
func TestMain(m *testing.M) {
	if dir := os.Getenv(parentEnv); dir != "" {
		RunWith(context.Background(), dir, []string{"python3", "-c", forkSleeper + "import time\ntime.sleep(60)\n"}, time.Minute, Options{Sandbox: DefaultSandbox()})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// syscallKill kills pid, for cleaning up after a check.
func syscallKill(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
