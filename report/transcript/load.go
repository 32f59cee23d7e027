package transcript

import "bench/results"

// Transcript is one episode's trajectory with what the run folder says
// about it.
type Transcript struct {
	Run      results.Run
	Dir      string // the run folder
	Entry    Entry
	Events   []results.Event
	Warnings []string // lines of the trajectory that were skipped (a torn last line)
}

// Load reads the trajectory of e in the run folder of data. A torn or
// malformed line is skipped and named in Warnings; a missing trajectory is
// an error that says which file.
func Load(data results.Data, e Entry) (Transcript, error) {
	t := Transcript{Run: data.Run, Dir: data.Dir, Entry: e}
	path := e.Path(data.Dir)
	if missing(path) {
		return t, errNoTrajectory(data.Dir, e)
	}
	events, warnings, err := results.ReadTrajectory(path)
	if err != nil {
		return t, err
	}
	t.Events, t.Warnings = events, warnings
	return t, nil
}
