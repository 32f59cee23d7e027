package runner

import (
	"os"
	"testing"

	"bench/sandbox"
)

// TestMain lets the test binary serve as the sandbox helper.
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}
