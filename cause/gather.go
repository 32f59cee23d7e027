package cause

import (
	"path"
	"slices"
	"strings"

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

// AddWitnesses adds the evidence of witnesses to the causes of a failed
// episode that wrote the files wrote, as Derive does with Input.Witnesses:
// needs_other_file, when a witness wrote a file of the task that is
// neither its source nor a test file and that the episode did not write
// (or, when the causes have needs_other_file already, the witness that
// wrote its file, added to its evidence). The result is in Derive's order
// and equals what Derive gives with the same witnesses. It is for a view
// that holds many episodes' causes and written files (recorded as each
// episode ended) rather than their trajectories.
func AddWitnesses(causes []Cause, task Task, wrote []string, ws []Witness) []Cause {
	rp := &replay{files: map[string]*written{}}
	for _, p := range wrote {
		p = path.Clean(p)
		rp.files[p] = &written{path: p}
	}
	d := &deriver{in: Input{Task: task, Witnesses: ws}, rp: rp}
	others := d.otherFiles()
	out := slices.Clone(causes)
	if i := slices.IndexFunc(out, func(c Cause) bool { return c.Name == NeedsOtherFile }); i >= 0 {
		if ev, _ := d.witnessOf(others, out[i].File); ev != "" && !strings.Contains(out[i].Evidence, ev) {
			out[i].Evidence += "; " + ev
		}
		return out
	}
	ev, file := d.witnessOf(others, "")
	if ev == "" {
		return causes
	}
	out = append(out, Cause{Name: NeedsOtherFile, Evidence: ev, File: file})
	Sort(out)
	return out
}
