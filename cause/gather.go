package cause

import (
	"slices"

	"bench/record"
)

// MaxPeers is the most trajectories of other episodes Gather reads.
const MaxPeers = 8

// Gather is Read plus the evidence that other episodes of the run hold,
// for a view of one episode (bench show): when its trajectory has no test
// run before its first write, the first run of another episode of the
// same task (every episode starts from the same files) as the Baseline;
// and as Witnesses the passing episodes of the same task and model that
// called the model (the oracle's overlay is not evidence). It reads at
// most MaxPeers other trajectories, and none for an episode Derive does
// not explain. A peer whose trajectory cannot be read is a warning.
func Gather(data record.Data, ep record.Episode, task Task) (Input, []string, error) {
	in, warnings, err := Read(data, ep, task)
	if err != nil || !explainable(ep) {
		return in, warnings, err
	}
	_, hasBase := Baseline(in.Events)
	read := 0
	for _, peer := range data.Episodes {
		if read >= MaxPeers {
			break
		}
		if peer.Key() == ep.Key() || peer.Task != ep.Task || peer.Lost() {
			continue
		}
		witness := peer.Passed && peer.Model == ep.Model
		if !witness && hasBase {
			continue
		}
		events, w, err := record.ReadTrajectory(data.TrajectoryPath(peer))
		read++
		warnings = append(warnings, w...)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if out, ok := Baseline(events); ok && !hasBase {
			in.Baseline, hasBase = out, true
		}
		if witness && slices.ContainsFunc(events, func(ev record.Event) bool { return ev.Kind == record.EventResponse }) {
			in.Witnesses = append(in.Witnesses, Witness{Episode: peer.Key(), Track: peer.Track, Wrote: Wrote(events)})
		}
	}
	return in, warnings, nil
}
