package runner

import (
	"context"
	"fmt"

	"bench/record"
)

// Sink stores a run's results: one trajectory per episode and each
// finished episode. *record.Writer fits it through WriterSink.
type Sink interface {
	Trajectory(ep record.Episode) (Trajectory, error) // ep names the task, track, model, seed and repeat
	Append(ep record.Episode) error
}

// runOne opens the job's trajectory, runs the episode and closes it; an
// episode whose trajectory cannot be opened, written or closed is lost to a
// fault. It also returns whether the episode met a full disk, which stops
// the run.
func runOne(ctx context.Context, cfg Config, sink Sink, j Job) (record.Episode, bool) {
	traj, err := sink.Trajectory(j.episode())
	if err != nil {
		traj = &lostTrajectory{err: fmt.Errorf("opening the trajectory: %w", err)}
	}
	ep, cause := episode(ctx, cfg, j, traj)
	if err := traj.Close(); err != nil && !(ep.ErrorKind == record.ErrorFault && ep.Lost()) {
		cause = loseToFault(&ep, "closing the trajectory", err)
	}
	return ep, ep.Lost() && isNoSpace(cause)
}

// lostTrajectory stands in for a trajectory that could not be opened: it
// drops events and reports why, so the episode still runs and says so.
type lostTrajectory struct{ err error }

func (l *lostTrajectory) Record(record.Event) {}
func (l *lostTrajectory) Err() error          { return l.err }
func (l *lostTrajectory) Close() error        { return nil }

// WriterSink adapts a record.Writer to Sink.
type WriterSink struct{ W *record.Writer }

// Trajectory opens the episode's trajectory file.
func (s WriterSink) Trajectory(ep record.Episode) (Trajectory, error) {
	t, err := s.W.EpisodeTrajectory(ep)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Append appends a finished episode to episodes.jsonl.
func (s WriterSink) Append(ep record.Episode) error { return s.W.Append(ep) }
