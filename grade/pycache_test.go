package grade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bench/testrun"
)

// TestBytecodeCacheIsBuiltSealedAndChecked: the cache holds the standard
// library's bytecode where -X pycache_prefix looks for it, read-only, and
// a file changed after it was built makes the next first use build it
// again.
func TestBytecodeCacheIsBuiltSealedAndChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the standard library twice")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bin := testrun.Interpreter(py)
	dir, err := openCache(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-I", "-c", "import importlib.util, sys, unittest.case; sys.pycache_prefix = sys.argv[1]; print(importlib.util.cache_from_source(unittest.case.__file__))", filepath.Join(dir, "pyc")).Output()
	if err != nil {
		t.Fatal(err)
	}
	pyc := strings.TrimSpace(string(out))
	info, err := os.Stat(pyc)
	if err != nil || info.Mode().Perm() != 0o444 {
		t.Fatalf("unittest/case.py's bytecode %s: %v, mode %v", pyc, err, info)
	}
	if d, _ := os.Stat(filepath.Dir(pyc)); d.Mode().Perm() != 0o555 {
		t.Errorf("its folder has mode %v, want read-only", d.Mode().Perm())
	}
	os.Chmod(filepath.Dir(pyc), 0o755)
	os.Chmod(pyc, 0o644)
	if err := os.WriteFile(pyc, []byte("planted"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := verifyCache(dir); err == nil {
		t.Fatal("a changed file passes the check")
	}
	if dir2, err := openCache(context.Background(), bin); err != nil || dir2 != dir || verifyCache(dir) != nil {
		t.Fatalf("the changed cache was not built again: %v", err)
	}
	if b, _ := os.ReadFile(pyc); string(b) == "planted" {
		t.Error("the planted file is still there")
	}
}
