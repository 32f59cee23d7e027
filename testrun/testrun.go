// Package testrun runs a task's test command in a workspace, safely, and
// parses and normalises what python3 -m unittest prints.
//
// Model-written code is untrusted: it runs in its own process group with a
// scrubbed environment, a timeout that kills the whole group, and capped
// output, inside the sandbox of package sandbox (see Options and
// SetSandbox).
package testrun

import (
	"time"

	"bench/sandbox"
)

// Outcomes of one test case, as unittest -v prints them.
const (
	OK                = "ok"
	Fail              = "FAIL"
	Error             = "ERROR"
	Skipped           = "skipped"
	ExpectedFailure   = "expected failure"
	UnexpectedSuccess = "unexpected success"
)

// Case is one test and its outcome.
type Case struct {
	Name    string `json:"name"` // e.g. "test_leap_century (test_leap.LeapTest)"
	Outcome string `json:"outcome"`
}

// Result is one run of a test command.
type Result struct {
	ExitCode   int
	Output     string // combined stdout and stderr, capped
	Normalized string // Output with the workspace path as "." and timings without numbers
	TimedOut   bool
	CutBytes   int // how much output the cap dropped
	Cases      []Case
	Passed     int
	Total      int
	Failed     []string // method names of failed or errored tests, in output order
	Duration   time.Duration
	LoadError  bool           // a test module could not be imported (unittest.loader._FailedTest): its tests never ran
	Sandbox    sandbox.Layers // the sandbox the run had
	Channel    string         // what the command wrote to file descriptor 3 (Options.Channel), capped at MaxChannel; for Go, the events of every test binary
	Ended      bool           // Go: every test binary printed the testing package's last line
}

// AllPassed reports whether the run passed every test it found.
func (r Result) AllPassed() bool {
	return r.ExitCode == 0 && !r.TimedOut && r.Total > 0 && r.Passed == r.Total
}
