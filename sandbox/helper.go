package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"sync/atomic"
)

// helperMarker is argv[1] of the helper: bench started again to apply
// Landlock and execute a test command.
const helperMarker = "__bench_sandbox_exec__"

// helperExit is the helper's exit code when it cannot set up the sandbox.
const helperExit = 126

// ready says that this executable can be re-executed as the helper: every
// executable linking this package can, since the package's init function
// handles the marker (tests turn it off to see the fallback).
var ready atomic.Bool

// helperReady reports whether this executable can serve as the helper.
func helperReady() bool { return ready.Load() }

// init serves as the helper, before main or TestMain and before the
// packages that sort after this one are initialised: any executable that
// can start a sandboxed run can be its own helper, a test binary included,
// and none re-executed as the helper can run anything else (its tests).
func init() { Init() }

// Init handles the helper: there it never returns, but applies the
// sandbox and executes the test command, or exits with code 126 and a
// message. In any other process it returns at once. The package's init
// function calls it, so calling it first in main (like docker's
// reexec.Init) only makes the hook visible where it matters.
func Init() {
	if len(os.Args) >= 3 && os.Args[1] == helperMarker {
		err := runHelper(os.Args[2])
		fmt.Fprintf(os.Stderr, "bench sandbox: %v\n", err)
		os.Exit(helperExit)
	}
	ready.Store(true)
}

// runHelper applies the layers of the spec and executes the command; it
// returns only on failure.
func runHelper(arg string) error {
	var hs helperSpec
	if err := json.Unmarshal([]byte(arg), &hs); err != nil {
		return fmt.Errorf("reading the helper's spec: %w", err)
	}
	if len(hs.Argv) == 0 || hs.Bin == "" {
		return fmt.Errorf("the helper was given no command")
	}
	if hs.Loopback {
		// Without it the namespace has no network at all, which is
		// stricter still; so a failure here is not fatal.
		loopbackUp()
	}
	return restrictAndExec(hs.ReadOnly, hs.ReadWrite, hs.Bin, hs.Argv, os.Environ())
}
