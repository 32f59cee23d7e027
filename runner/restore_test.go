package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"bench/tasks"
)

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
		t.Skip("no symlinks:", err)
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

// TestPostureSnapshotHasNoTempPath: a task whose repo/ holds a project
// marker is its own snapshot root; the snapshot (part of the system prompt)
// must not name the episode's temporary workspace, or no two episodes of a
// seed would send the same prompt.
func TestPostureSnapshotHasNoTempPath(t *testing.T) {
	tk := tasks.Task{Name: "proj", FS: fstest.MapFS{
		"repo/pyproject.toml": {Data: []byte("[project]\nname = \"x\"\n")},
		"repo/x.py":           {Data: []byte("x = 1\n")},
	}}
	var snaps []string
	for range 2 {
		dir := workspace(t, tk)
		p := decidePosture("auto", dir)
		if p.Label != PostureCoding || p.Snapshot == "" {
			t.Fatalf("posture = %+v; want coding with a snapshot", p)
		}
		if strings.Contains(p.Snapshot, dir) {
			t.Errorf("snapshot names the workspace %s:\n%s", dir, p.Snapshot)
		}
		snaps = append(snaps, p.Snapshot)
	}
	if snaps[0] != snaps[1] {
		t.Errorf("snapshots of two workspaces differ:\n%s\n---\n%s", snaps[0], snaps[1])
	}
}
