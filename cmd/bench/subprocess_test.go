package main

import (
	"os"
	"testing"
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
	os.Exit(code)
}
