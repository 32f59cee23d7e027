package cause

import (
	"fmt"
	"slices"

	"bench/record"
	"bench/tasks"
)

// Shown is what a view says of one episode's causes: the causes, and how
// they were found.
type Shown struct {
	Causes []Cause `json:"causes"`
	// How is where they come from (record.CausesHow); Why says why they
	// are absent.
	How record.CausesHow `json:"how"`
	Why string           `json:"why,omitempty"`
}

// ForEpisode returns the causes of episode ep of the run folder data:
// those its line records, with the evidence of the run's passing
// episodes added (AddWitnesses); for a line that records none (a run
// older than causes), those Gather and Derive find in its trajectory,
// the task read from the built-in suite or the folder run.json names as
// its origin. It never fails: what it cannot read makes the causes
// absent, saying why.
func ForEpisode(data record.Data, ep record.Episode) Shown {
	if !explainable(ep) {
		return Shown{How: record.HowNone}
	}
	task, err := taskOfRun(data.Run, ep.Task)
	if ep.Causes != nil {
		causes := ep.Causes
		if err == nil {
			causes = AddWitnesses(causes, task, ep.FilesWritten, witnessesOf(data, ep))
		}
		return Shown{Causes: causes, How: record.HowRecorded}
	}
	if err != nil {
		return Shown{How: record.HowAbsent, Why: "the run is older than causes, and " + err.Error()}
	}
	in, _, err := Gather(data, ep, task)
	if err != nil {
		return Shown{How: record.HowAbsent, Why: "the run is older than causes, and its trajectory cannot be read: " + err.Error()}
	}
	return Shown{Causes: Derive(in), How: record.HowDerived}
}

// witnessesOf are the passing episodes of ep's task and model that
// called the model, with the files their lines say they wrote.
func witnessesOf(data record.Data, ep record.Episode) []Witness {
	var out []Witness
	for _, p := range data.Episodes {
		if p.Passed && p.Task == ep.Task && p.Model == ep.Model && p.ModelCalls > 0 && len(p.FilesWritten) > 0 && p.Key() != ep.Key() {
			out = append(out, Witness{Episode: p.Key(), Track: p.Track, Wrote: p.FilesWritten})
		}
	}
	return out
}

// taskOfRun finds the task called name as run.json says it was loaded:
// built in, or from a --tasks-dir folder; a task whose files have changed
// since (its checksum differs) is refused, since its causes would be read
// against other files.
func taskOfRun(run record.Run, name string) (Task, error) {
	i := slices.IndexFunc(run.Tasks, func(r record.TaskRef) bool { return r.Name == name })
	origin := record.OriginBuiltin
	var want string
	if i >= 0 {
		origin, want = run.Tasks[i].Origin, run.Tasks[i].Checksum
	}
	var all []tasks.Task
	var err error
	if origin == "" || origin == record.OriginBuiltin {
		all, err = tasks.Builtin()
	} else {
		all, err = tasks.FromDir(origin)
	}
	if err != nil {
		return Task{}, fmt.Errorf("its task %s cannot be loaded: %v", name, err)
	}
	j := slices.IndexFunc(all, func(t tasks.Task) bool { return t.Name == name })
	if j < 0 {
		return Task{}, fmt.Errorf("this bench has no task %s", name)
	}
	if sum, err := all[j].Checksum(); want != "" && (err != nil || sum != want) {
		return Task{}, fmt.Errorf("task %s has changed since the run (its checksum differs)", name)
	}
	return TaskOf(all[j])
}
