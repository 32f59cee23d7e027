package runner

import (
	"context"
	"os/exec"
	"testing"

	"bench/tasks"
	"bench/track/tracktest"
)

// TestVerifySuite runs the oracle check of every task of the suite, Python
// and Go: each original fails, each partial/ fails with partial_expect in
// its output, each solution passes.
func TestVerifySuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every task of the suite")
	}
	tracktest.NeedPython(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	var goTasks int
	for i, v := range VerifyAll(context.Background(), all, VerifyCache{}) {
		tk := all[i]
		if tk.Framework == tasks.FrameworkGo {
			goTasks++
		}
		checkVerified(t, tk, v)
	}
	if goTasks == 0 {
		t.Error("the suite has no Go task to verify")
	}
}

// checkVerified fails t unless v, the verification of tk, passed every
// check it must make: three, and a fourth for a task with partial_expect.
func checkVerified(t *testing.T, tk tasks.Task, v Verification) {
	t.Helper()
	if !v.OK() {
		t.Errorf("%s: %+v", tk.Name, v.Checks)
	}
	want := 3
	if tk.PartialExpect != "" {
		want = 4
	}
	if len(v.Checks) != want {
		t.Errorf("%s: %d checks, want %d", tk.Name, len(v.Checks), want)
	}
}

// TestVerifyCacheKeyNamesTheTestTool: a verification is kept per test
// tool, so a Go task is checked again under another go, not only under
// another python3.
func TestVerifyCacheKeyNamesTheTestTool(t *testing.T) {
	tk := task(t, "leap_year")
	other := tk
	other.TestCmd = []string{"sh", "-c", "true"}
	c := VerifyCache{Dir: t.TempDir()}
	if c.path(tk, "sha256:a") == c.path(other, "sha256:a") {
		t.Fatal("the cache key does not depend on the task's test command")
	}
}
