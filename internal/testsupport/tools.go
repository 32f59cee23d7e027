package testsupport

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// NeedPython skips t when python3 is not on PATH.
func NeedPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
}

// NeedGo skips t when go is not on PATH.
func NeedGo(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
}

// realPython is the interpreter python3 on PATH runs, asked once.
var realPython = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	return strings.TrimSpace(string(out)), err
})

// Python returns the real python3 executable (not a version manager's shim,
// which starts slowly and adds variables of its own), or skips t when there
// is no python3.
func Python(t testing.TB) string {
	t.Helper()
	NeedPython(t)
	exe, err := realPython()
	if err != nil || exe == "" {
		t.Fatalf("asking python3 for its executable: %v", err)
	}
	return exe
}
