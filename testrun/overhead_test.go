package testrun_test

import (
	"testing"

	"bench/testrun/testruntest"
)

// BenchmarkSandboxOverhead runs `true` unsandboxed and sandboxed, in
// turn: the sandbox's own cost without an interpreter's start-up noise,
// reported as ms-overhead/run (target: at most 30 ms). The helper here is
// this small test binary; cmd/bench's benchmark measures bench's own.
func BenchmarkSandboxOverhead(b *testing.B) { testruntest.SandboxOverhead(b) }
