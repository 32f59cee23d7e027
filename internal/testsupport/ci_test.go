package testsupport

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// requiredSwitch is how a suite that skips where its engine or a feature
// of the machine is missing (the real Ollama server, Slurm, GNU parallel,
// Chromium; a sandbox layer, symlinks, …: fixture.Lacks) names the
// variable that makes the skip a failure.
var requiredSwitch = regexp.MustCompile(`"(BENCH_[A-Z_]+_REQUIRED)"`)

// TestCIRequiresEverySuiteThatCanSkip: every BENCH_*_REQUIRED variable a
// Go file of the module reads is exported as 1 by .ci/run, so that no
// suite passes CI by skipping (one commit dropped the export line, and CI
// still passed).
func TestCIRequiresEverySuiteThatCanSkip(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		src, err := os.ReadFile(p)
		for _, m := range requiredSwitch.FindAllSubmatch(src, -1) {
			names = append(names, string(m[1]))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) < 5 {
		t.Fatalf("found %q: fewer switches than the five that exist (the search is broken)", names)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	for _, line := range strings.Split(string(ci), "\n") {
		if fields := strings.Fields(line); len(fields) > 1 && fields[0] == "export" {
			for _, f := range fields[1:] {
				exported[f] = true
			}
		}
	}
	for _, name := range names {
		if !exported[name+"=1"] {
			t.Errorf(".ci/run does not export %s=1: that suite would pass CI by skipping", name)
		}
	}
}
