package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"bench/cause"
	"bench/record"
	"bench/scratch"
	"bench/tasks"
	"bench/testrun"
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
// looked for. An episode that wrote before it ever ran the tests (an
// agent's) has no first run to compare with: the tests are run on a fresh
// copy of the task's original files (firstRun), whose time explain
// returns. A task whose files cannot be read, or whose original files'
// tests cannot be run, leaves the causes out: unknown, not "none found".
func explain(ctx context.Context, ep *record.Episode, task tasks.Task, events []record.Event, grading string) time.Duration {
	ep.FilesWritten = cause.Wrote(events)
	if ep.Passed || ep.ExitReason == record.ExitInterrupted || ep.ExitReason == record.ExitError {
		return 0
	}
	t, err := cause.TaskOf(task)
	if err != nil {
		return 0
	}
	in := cause.Input{Task: t, Episode: *ep, Events: events}
	if grading != "" {
		in.Grading = &cause.Grading{Output: grading}
	}
	var spent time.Duration
	if _, ok := cause.Baseline(events); !ok && len(ep.FilesWritten) > 0 {
		out, d, err := firstRun(ctx, task)
		if err != nil {
			return d
		}
		in.Baseline, spent = out, d
	}
	ep.Causes = cause.Derive(in)
	if ep.Causes == nil {
		ep.Causes = []record.Cause{}
	}
	return spent
}

// firstRun runs the tests of task on a fresh copy of its original files,
// as a track's first test run would, and returns their normalised output
// and the run's duration; an error when the copy cannot be made or the
// tests cannot be run whole (they did not start, ctx ended, they timed
// out).
func firstRun(ctx context.Context, task tasks.Task) (string, time.Duration, error) {
	ws, err := scratch.New(task)
	if err != nil {
		return "", 0, err
	}
	defer ws.Remove()
	res, err := testrun.RunTask(ctx, task, ws.Dir)
	if err == nil && res.TimedOut {
		err = fmt.Errorf("the tests of %s on its original files timed out", task.Name)
	}
	return res.Normalized, res.Duration, err
}
