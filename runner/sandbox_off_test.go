package runner_test

import (
	"testing"

	"bench/sandbox"
	"bench/testrun"
)

// The runner's tests run with the sandbox off: they test what the
// scheduler, the pool and the run folder do with episodes, and most of
// their tasks' test command is `true`. A sandboxed run costs two starts of
// this test binary (about 50 ms of CPU against 5 for `true`), which was
// most of the package's CPU. The sandbox itself is tested in packages
// sandbox, testrun and grade, and through the CLI in cmd/bench's attack
// tests.
func init() { testrun.SetSandbox(sandbox.Config{Mode: sandbox.Off}) }

// sandboxed runs the rest of the test t, which must not be parallel, in
// bench run's default sandbox (with it, grading reads the sealed bytecode
// cache instead of compiling Python's standard library at every run). The
// test's parallel subtests end before it does, and the package's parallel
// tests start after that.
func sandboxed(t *testing.T) {
	testrun.SetSandbox(sandbox.Config{Mode: sandbox.Auto})
	t.Cleanup(func() { testrun.SetSandbox(sandbox.Config{Mode: sandbox.Off}) })
}
