package runner

import (
	"sync"

	"bench/cause"
	"bench/record"
	"bench/tasks"
)

// keeper is a Trajectory that also keeps the events it records, for the
// causes of the episode derived once it has ended.
type keeper struct {
	Trajectory
	mu     sync.Mutex
	events []record.Event
}

// Record keeps ev and records it.
func (k *keeper) Record(ev record.Event) {
	k.mu.Lock()
	k.events = append(k.events, ev)
	k.mu.Unlock()
	k.Trajectory.Record(ev)
}

// explain sets the files ep's track wrote and, for a failed episode that
// neither an interrupt nor an error ended, its causes (package cause),
// derived from the events kept and grading's normalised output: an empty
// list when no rule found evidence, so that the line says causes were
// looked for. A task whose files cannot be read leaves the causes out.
func explain(ep *record.Episode, task tasks.Task, events []record.Event, grading string) {
	ep.FilesWritten = cause.Wrote(events)
	if ep.Passed || ep.ExitReason == record.ExitInterrupted || ep.ExitReason == record.ExitError {
		return
	}
	t, err := cause.TaskOf(task)
	if err != nil {
		return
	}
	in := cause.Input{Task: t, Episode: *ep, Events: events}
	if grading != "" {
		in.Grading = &cause.Grading{Output: grading}
	}
	ep.Causes = cause.Derive(in)
	if ep.Causes == nil {
		ep.Causes = []record.Cause{}
	}
}
