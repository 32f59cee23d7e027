package runner

import (
	"strings"
	"testing"
	"testing/fstest"

	"bench/detect"
	"bench/tasks"
)

// TestPostureOnPromisesOnlyWhatItGives: --posture on in a lone copy (no
// project root, so no snapshot) gives guidance that speaks of no snapshot
// below; in a project it gives the snapshot and the words on it.
func TestPostureOnPromisesOnlyWhatItGives(t *testing.T) {
	lone := tasks.Task{Name: "lone", FS: fstest.MapFS{"repo/leap.py": {Data: []byte("x = 1\n")}, "repo/test_leap.py": {Data: []byte("y = 2\n")}}}
	p := decidePosture("on", workspace(t, lone))
	if p.Label != detect.ProfileCoding || strings.TrimSpace(p.Snapshot) != "" {
		t.Fatalf("a lone copy: posture %+v; want coding without a snapshot", p)
	}
	if strings.Contains(p.Guidance, "snapshot") || p.Guidance == "" {
		t.Errorf("a lone copy's guidance speaks of a snapshot it lacks:\n%s", p.Guidance)
	}
	proj := tasks.Task{Name: "proj", FS: fstest.MapFS{"repo/pyproject.toml": {Data: []byte("[project]\nname = \"x\"\n")}, "repo/x.py": {Data: []byte("x = 1\n")}}}
	p = decidePosture("on", workspace(t, proj))
	if p.Snapshot == "" || p.Guidance != detect.Guidance || !strings.Contains(p.Guidance, "snapshot below") {
		t.Errorf("a project: posture %+v; want the snapshot and the whole guidance", p)
	}
}
