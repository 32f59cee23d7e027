package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/testrun"
)

// TestNormalizedOutputThroughSymlinkedTmpdir runs the real parse_date tests,
// whose output holds a traceback, in two workspaces made under a TMPDIR that
// is a symlink (as /tmp is on macOS). The normalised outputs must be
// byte-identical and name neither form of either workspace path, or seeded
// prompts would differ between episodes.
func TestNormalizedOutputThroughSymlinkedTmpdir(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "tmp-link")
	if err := os.Symlink(real, link); err != nil {
		fixture.Lacks(t, fmt.Sprint("no symlinks: ", err))
	}
	t.Setenv("TMPDIR", link)
	tk := task(t, "parse_date")
	var outs []string
	for range 2 {
		dir := workspace(t, tk)
		res, err := testrun.RunTask(context.Background(), tk, dir) // as a track runs them
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Output, "Traceback") || !strings.Contains(res.Output, dir) {
			t.Fatalf("expected a traceback naming the workspace, got:\n%s", res.Output)
		}
		for _, p := range []string{real, link, dir} {
			if strings.Contains(res.Normalized, p) {
				t.Errorf("normalised output still holds %s:\n%s", p, res.Normalized)
			}
		}
		outs = append(outs, res.Normalized)
	}
	if outs[0] != outs[1] {
		t.Errorf("normalised outputs of two workspaces differ:\n%s\n---\n%s", outs[0], outs[1])
	}
}
