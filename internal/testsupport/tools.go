package testsupport

import (
	"testing"

	"bench/internal/testsupport/fixture"
)

// NeedPython skips t when python3 is not on PATH (fixture.NeedPython).
func NeedPython(t testing.TB) {
	t.Helper()
	fixture.NeedPython(t)
}

// NeedGo skips t when go is not on PATH (fixture.NeedGo).
func NeedGo(t testing.TB) {
	t.Helper()
	fixture.NeedGo(t)
}

// Python returns the real python3 executable, or skips t when there is no
// python3 (fixture.Python).
func Python(t testing.TB) string {
	t.Helper()
	return fixture.Python(t)
}
