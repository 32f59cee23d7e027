package grade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"4096": 4096, "256MiB": 256 << 20, "100MB": 100e6, "1.5GiB": 3 << 29, " 2 KiB ": 2048, "7B": 7} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1MiB", "0", "lots", "12XB", "1e300GiB"} {
		if _, err := ParseSize(bad); err == nil || !strings.Contains(err.Error(), "e.g. 256MiB") {
			t.Errorf("ParseSize(%q): %v", bad, err)
		}
	}
}

// sparseWorkspace is leap_year's solution plus n sparse files of 4 MiB.
func sparseWorkspace(t *testing.T, n int) string {
	t.Helper()
	tk := task(t, "leap_year")
	dir := workspace(t, tk)
	if err := overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sparse"), 0o755)
	for i := range n {
		f, err := os.Create(filepath.Join(dir, "sparse", strings.Repeat("x", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(4 << 20)
		f.Close()
	}
	return dir
}

// TestSealKeepsSparseFilesSparse: 60 sparse files of 4 MiB take no more
// room in the sealed copy than in the workspace.
func TestSealKeepsSparseFilesSparse(t *testing.T) {
	t.Parallel()
	dir := sparseWorkspace(t, 60)
	root := t.TempDir()
	var g Result
	ws, err := seal(context.Background(), task(t, "leap_year"), dir, root, &g)
	if err != nil {
		t.Fatal(err)
	}
	var blocks, files int64
	filepath.Walk(filepath.Join(ws, "sparse"), func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			files++
			blocks += info.Sys().(*syscall.Stat_t).Blocks
			if info.Size() != 4<<20 {
				t.Errorf("%s is %d bytes in the sealed copy", p, info.Size())
			}
		}
		return nil
	})
	if files != 60 || blocks*512 > 1<<20 {
		t.Errorf("%d sparse files take %d bytes in the sealed copy", files, blocks*512)
	}
}

// TestGradeRefusesAWorkspaceOverTheLimit: over the workspace limit the
// workspace is not copied, and the grading says why; gradings with two
// limits at once each keep their own (the limit was a process-wide
// setting, which a parallel run in the same process overwrote).
func TestGradeRefusesAWorkspaceOverTheLimit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	dir := sparseWorkspace(t, 3)
	var wg sync.WaitGroup
	var over, under Result
	var errOver, errUnder error
	wg.Go(func() {
		over, errOver = GradeWith(context.Background(), task(t, "leap_year"), dir, Options{WorkspaceLimit: 8 << 20})
	})
	wg.Go(func() {
		under, errUnder = GradeWith(context.Background(), task(t, "leap_year"), dir, Options{WorkspaceLimit: 16 << 20})
	})
	wg.Wait()
	if errOver != nil || over.Passed || over.TestsTotal != 6 || len(over.Failed) != 6 || !strings.Contains(over.Refused, "more than 8 MiB") {
		t.Errorf("over the limit: passed %v, %d/%d, refused %q, %v", over.Passed, over.TestsPassed, over.TestsTotal, over.Refused, errOver)
	}
	if errUnder != nil || !under.Passed || under.Refused != "" {
		t.Errorf("under the limit: passed %v, refused %q, %v", under.Passed, under.Refused, errUnder)
	}
}
