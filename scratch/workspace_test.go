package scratch

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// workspace returns a fresh copy of the task, removed after the test.
func workspace(t *testing.T, tk tasks.Task) string {
	t.Helper()
	w, err := New(tk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Remove() })
	return w.Dir
}

func TestNewCopiesRepoOnly(t *testing.T) {
	tk := fixture.CourseTask(t, "parse_date")
	w, err := New(tk)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(w.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(w.Dir, p)
			got = append(got, rel)
			info, _ := d.Info()
			if info.Mode().Perm()&0o200 == 0 {
				t.Errorf("%s is not writable (mode %v)", rel, info.Mode())
			}
			want, _ := fs.ReadFile(tk.FS, "repo/"+filepath.ToSlash(rel))
			have, _ := os.ReadFile(p)
			if string(want) != string(have) {
				t.Errorf("%s differs from repo/", rel)
			}
		}
		return nil
	})
	if strings.Join(got, " ") != "README.md dateparse.py test_dateparse.py" {
		t.Errorf("workspace holds %v", got)
	}
	if !filepath.IsAbs(w.Dir) {
		t.Errorf("Dir %q is not absolute", w.Dir)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Errorf("Remove left %s behind", w.Dir)
	}
}

// TestRemoveReadOnlyAndLinkOut: a workspace holding a read-only folder (and
// itself made read-only) and a symlink to a folder outside is removed
// entirely, and nothing outside is touched or made writable.
func TestRemoveReadOnlyAndLinkOut(t *testing.T) {
	outside := t.TempDir()
	keep := filepath.Join(outside, "keep.txt")
	if err := os.WriteFile(keep, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(outside, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(outside, 0o755) })
	dir, err := os.MkdirTemp("", "bench-remove-")
	if err != nil {
		t.Fatal(err)
	}
	w := &Workspace{Dir: dir}
	t.Cleanup(func() { w.Remove(); os.RemoveAll(dir) })
	ro := filepath.Join(dir, "ro", "deeper")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ro, "f.py"), []byte("x\n"), 0o444)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		fixture.Lacks(t, fmt.Sprint("no symlinks: ", err))
	}
	os.Chmod(ro, 0o500)
	os.Chmod(filepath.Dir(ro), 0o500)
	os.Chmod(dir, 0o500)
	if err := w.Remove(); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Error("the workspace is still there")
	}
	if got, err := os.ReadFile(keep); err != nil || string(got) != "keep\n" {
		t.Errorf("the file outside changed: %q, %v", got, err)
	}
	if info, _ := os.Stat(outside); info.Mode().Perm() != 0o555 {
		t.Errorf("the folder outside was chmodded to %v", info.Mode().Perm())
	}
}

func TestOverlay(t *testing.T) {
	tk := fixture.CourseTask(t, "leap_year")
	dir := workspace(t, tk)
	if err := Overlay(tk, dir, "solution"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "leap.py"))
	if !strings.Contains(string(got), "year % 400 == 0") {
		t.Error("the solution was not overlaid")
	}
	if _, err := os.Stat(filepath.Join(dir, "test_leap.py")); err != nil {
		t.Error("the overlay removed a file it does not hold")
	}
	if err := Overlay(tk, dir, "partial"); err == nil || !strings.Contains(err.Error(), "no partial/ folder") {
		t.Errorf("overlaying a missing partial/: err = %v", err)
	}
	if err := Overlay(tk, dir, "../repo"); err == nil {
		t.Error("Overlay accepted a folder other than solution or partial")
	}
}
