package main

import (
	"testing"

	"bench/testrun/testruntest"
)

// BenchmarkSandboxOverhead is the sandbox's cost per test run with bench
// itself as the helper (this test binary links everything bench does):
// ms-overhead/run, target at most 30 ms.
func BenchmarkSandboxOverhead(b *testing.B) { testruntest.SandboxOverhead(b) }
