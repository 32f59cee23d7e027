package runner

import (
	"strings"

	"bench/detect"
	"bench/record"
	"bench/testrun"
)

// Posture is what a track is given about the workspace: the coding
// guidance and snapshot, or nothing, and the label recorded for it in
// record.Episode.Posture (the detector's profile: detect.ProfileCoding or
// detect.ProfileGeneral).
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
	mode, ok := detectMode[posture]
	if !ok {
		return Posture{Label: detect.ProfileGeneral}
	}
	d, err := detect.Detect(dir, mode, "cli")
	if mode == detect.ModeAuto && (err != nil || !d.Guidance) {
		return Posture{Label: detect.ProfileGeneral}
	}
	snapshot := testrun.Normalize(d.Snapshot, dir)
	return Posture{Guidance: detect.GuidanceFor(strings.TrimSpace(snapshot) != ""), Snapshot: snapshot, Label: detect.ProfileCoding}
}

// detectMode is the detector's mode for each --posture value that asks it
// (off does not).
var detectMode = map[string]string{record.PostureOn: detect.ModeOn, record.PostureAuto: detect.ModeAuto}
