package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// TestRestoreThroughSymlinkedFolder: a test file in a subfolder whose folder
// a track replaced by a symlink leading outside is restored inside the
// workspace; the file outside is neither deleted nor overwritten.
func TestRestoreThroughSymlinkedFolder(t *testing.T) {
	tk := tasks.Task{Name: "nested", FS: fstest.MapFS{
		"repo/tests/test_x.py": {Data: []byte("pristine\n")},
	}}
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "test_x.py")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "tests")); err != nil {
		fixture.Lacks(t, fmt.Sprint("no symlinks: ", err))
	}
	changed, err := restore(tk, dir, "tests/test_x.py")
	if err != nil {
		t.Fatal(err)
	}
	if !changed {
		t.Error("a test folder replaced by a symlink was not flagged")
	}
	if got, err := os.ReadFile(victim); err != nil || string(got) != "keep me\n" {
		t.Errorf("restoring went through the symlink: outside file now %q, %v", got, err)
	}
	info, err := os.Lstat(filepath.Join(dir, "tests"))
	if err != nil || !info.IsDir() {
		t.Fatalf("tests/ is not a real folder after restoring: %v, %v", info, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "tests", "test_x.py")); string(got) != "pristine\n" {
		t.Errorf("restored file holds %q", got)
	}
}

// TestRestoreThroughAFile: a folder of a test file replaced by a plain file
// is replaced by the folder again.
func TestRestoreThroughAFile(t *testing.T) {
	tk := tasks.Task{Name: "nested", FS: fstest.MapFS{
		"repo/tests/test_x.py": {Data: []byte("pristine\n")},
	}}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tests"), []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := restore(tk, dir, "tests/test_x.py")
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "tests", "test_x.py")); string(got) != "pristine\n" {
		t.Errorf("restored file holds %q", got)
	}
}
