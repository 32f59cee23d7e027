package verify

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// deps returns, for each of pkgs, the packages it depends on, itself
// included, read with one go list for all of them (each go list loads the
// module's packages anew).
func deps(t *testing.T, pkgs ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(pkgs, " "), err)
	}
	got := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		got[fields[0]] = fields
	}
	if len(got) != len(pkgs) {
		t.Fatalf("go list answered for %d packages, want %d:\n%s", len(got), len(pkgs), out)
	}
	return got
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
	pkgs := []string{"bench/cmd/bench"}
	for pkg := range mustNotImport {
		pkgs = append(pkgs, pkg)
	}
	all := deps(t, pkgs...)
	for pkg, banned := range mustNotImport {
		got := all[pkg]
		for _, b := range banned {
			if slices.Contains(got, b) {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
	if !slices.Contains(all["bench/cmd/bench"], "bench/runner") {
		t.Error("the control, cmd/bench, does not depend on bench/runner: the reading of go list is wrong")
	}
}
