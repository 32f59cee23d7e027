package testsupport

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"bench/internal/testsupport/fixture"
)

// TestBuildBenchSharesOneBinary: two builds at once (two test packages'
// TestMains) give one path, a build when nothing changed leaves the binary
// in place (no second link), and the binary is bench.
func TestBuildBenchSharesOneBinary(t *testing.T) {
	fixture.NeedGo(t)
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	paths := make([]string, 2)
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() {
			p, err := BuildBench(root)
			if err != nil {
				t.Error(err)
			}
			paths[i] = p
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if paths[0] != paths[1] {
		t.Fatalf("two builds gave %q and %q, want one path", paths[0], paths[1])
	}
	before, err := os.Stat(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildBench(root); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	// go build touches an up-to-date target; a link writes a new file.
	if !os.SameFile(before, after) {
		t.Errorf("a build with nothing changed linked %s again", paths[0])
	}
	out, err := exec.Command(paths[0], "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "bench") {
		t.Errorf("%s --version: %v: %s", paths[0], err, out)
	}
}
