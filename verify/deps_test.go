package verify

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// deps returns the packages pkg depends on, itself included (go list -deps).
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// mustNotImport is, for each package split out of the runner, the packages
// of this module it must build without: the runner (its scheduling, pool
// and resume) above all, and for verification and the task copies the
// tracks and the model clients too.
var mustNotImport = map[string][]string{
	"bench/verify":  {"bench/runner", "bench/oracle", "bench/track", "bench/model", "bench/workflow", "bench/loop", "bench/hybrid", "bench/plan", "bench/preflight"},
	"bench/scratch": {"bench/runner", "bench/verify", "bench/oracle", "bench/track", "bench/model", "bench/grade", "bench/plan"},
	"bench/oracle":  {"bench/runner", "bench/verify", "bench/workflow", "bench/loop", "bench/hybrid", "bench/grade", "bench/plan"},
}

// TestSplitPackagesImportNoRunner: verification, the oracle track and the
// task copies build without the runner (go list -deps), so that a task is
// verified with nothing of a run. The control, cmd/bench, depends on the
// runner by the same reading, so the check can fail.
func TestSplitPackagesImportNoRunner(t *testing.T) {
	for pkg, banned := range mustNotImport {
		got := deps(t, pkg)
		for _, b := range banned {
			if slices.Contains(got, b) {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
	if !slices.Contains(deps(t, "bench/cmd/bench"), "bench/runner") {
		t.Error("the control, cmd/bench, does not depend on bench/runner: the reading of go list is wrong")
	}
}
