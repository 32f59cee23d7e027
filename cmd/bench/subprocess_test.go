package main

import (
	"fmt"
	"os"
	"testing"

	"bench/runner"
)

// benchAsSubprocess, when set in the environment, makes the test binary
// behave as the bench command itself, so tests can run (and kill) a real
// bench process without building one.
const benchAsSubprocess = "BENCH_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(benchAsSubprocess) == "1" {
		main()
		return
	}
	code := m.Run()
	removeSharedRuns()
	if code == 0 {
		code = leftResults()
	}
	os.Exit(code)
}

// leftResults fails the tests when one of them wrote a run into the
// package's folder: a run without --out goes to results/ under the
// working directory, and two such runs were once committed from here.
func leftResults() int {
	if _, err := os.Stat(runner.ResultsDir); err == nil {
		fmt.Fprintf(os.Stderr, "a test wrote %s/ in cmd/bench: give every bench run of a test --out under t.TempDir()\n", runner.ResultsDir)
		return 1
	}
	return 0
}
