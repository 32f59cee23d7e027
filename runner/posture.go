package runner

import (
	"strings"

	"bench/detect"
	"bench/testrun"
)

// Posture labels recorded in results.Episode.Posture.
const (
	PostureCoding  = "coding"
	PostureGeneral = "general"
)

// Posture is what a track is given about the workspace: the coding
// guidance and snapshot, or nothing, and the label recorded for it.
type Posture struct {
	Guidance string
	Snapshot string
	Label    string
}

// decidePosture applies --posture to a workspace: off gives the general
// posture; on gives the coding guidance (with a snapshot when the detector
// finds a root, and else without its words on the snapshot); auto asks the detector, as the cli platform would. The
// workspace's temporary path becomes "." in the snapshot, as in test
// output, so that the system prompt is the same in every episode of a task.
func decidePosture(posture, dir string) Posture {
	if posture != "on" && posture != "auto" {
		return Posture{Label: PostureGeneral}
	}
	d, err := detect.Detect(dir, posture, "cli")
	if posture == "auto" && (err != nil || !d.Guidance) {
		return Posture{Label: PostureGeneral}
	}
	snapshot := testrun.Normalize(d.Snapshot, dir)
	return Posture{Guidance: detect.GuidanceFor(strings.TrimSpace(snapshot) != ""), Snapshot: snapshot, Label: PostureCoding}
}
