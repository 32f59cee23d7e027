package transcript

import "bench/record"

// Transcript is one episode's trajectory with what the run folder says
// about it.
type Transcript struct {
	Run      record.Run
	Dir      string // the run folder
	Entry    Entry
	Events   []record.Event
	Warnings []string // lines of the trajectory that were skipped (a torn last line)

	// Causes are why the episode failed, most specific first, as the
	// caller found them (package cause: recorded by the run, or derived
	// from the trajectory for an older run), and CausesHow how, with
	// CausesWhy saying why they are absent. The header shows them first.
	Causes    []record.Cause
	CausesHow record.CausesHow
	CausesWhy string
}

// Load reads the trajectory of e in the run folder of data. A torn or
// malformed line is skipped and named in Warnings; a missing trajectory is
// an error that says which file.
func Load(data record.Data, e Entry) (Transcript, error) {
	t := Transcript{Run: data.Run, Dir: data.Dir, Entry: e}
	path := e.Path(data.Dir)
	if missing(path) {
		return t, errNoTrajectory(data.Dir, e)
	}
	events, warnings, err := record.ReadTrajectory(path)
	if err != nil {
		return t, err
	}
	t.Events, t.Warnings = events, warnings
	return t, nil
}
