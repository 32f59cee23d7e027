package runner

import (
	"strings"
	"testing"
	"testing/fstest"

	"bench/detect"
	"bench/tasks"
)

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
		if p.Label != detect.ProfileCoding || p.Snapshot == "" {
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
