package runner_test

import (
	"bench/sandbox"
	"bench/testrun"
)

// The runner's tests run with the sandbox off: they test what the
// scheduler, the pool and the run folder do with episodes, and their
// tasks' test command is `true`. A sandboxed run costs two starts of this
// test binary (about 50 ms of CPU against 5 for `true`), which was most of
// the package's CPU. The sandbox itself is tested in packages sandbox,
// testrun and grade, and through the CLI in cmd/bench's attack tests.
func init() { testrun.SetSandbox(sandbox.Config{Mode: sandbox.Off}) }
