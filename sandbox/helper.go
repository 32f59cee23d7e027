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

// ready is set by Init: this executable recognises the helper marker, so
// it can be re-executed as the helper.
var ready atomic.Bool

// helperReady reports whether Init was called in this process.
func helperReady() bool { return ready.Load() }

// Init must be the first statement of main (and of a TestMain in packages
// whose tests run sandboxed test runs, since there the test binary is the
// executable). In the helper it never returns: it applies the sandbox and
// executes the test command, or exits with code 126 and a message. In any
// other process it returns at once and enables the Landlock layer.
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
