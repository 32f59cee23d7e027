package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"bench/record"
	"bench/scratch"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
)

// fakeFullDisk makes every workspace fail as a full temp disk does.
func fakeFullDisk(tasks.Task) (*scratch.Workspace, error) {
	return nil, &os.PathError{Op: "mkdirtemp", Path: "/tmp/bench-quick-*", Err: syscall.ENOSPC}
}

// withFake puts fake in *v for the test.
func withFake[T any](t *testing.T, v *T, fake T) {
	old := *v
	*v = fake
	t.Cleanup(func() { *v = old })
}

// doneTrack is a fake track that finishes at once.
func doneTrack(context.Context, *track.Env) track.Outcome {
	return track.Outcome{Exit: record.ExitDone}
}

// TestFaultsOfTheMachineAreLost: a workspace that cannot be made, one that
// cannot be removed, and a failure for want of memory, files or processes
// are the machine's: the episode is lost (record.ErrorFault).
func TestFaultsOfTheMachineAreLost(t *testing.T) {
	enomem := func(context.Context, *track.Env) track.Outcome {
		return track.Outcome{Exit: record.ExitError, Err: fmt.Errorf("running the tests: fork/exec python3: %w", syscall.ENOMEM)}
	}
	emfile := func(context.Context, *track.Env) track.Outcome {
		return track.Outcome{Exit: record.ExitError, Err: &os.PathError{Op: "open", Path: "x", Err: syscall.EMFILE}}
	}
	t.Run("workspace cannot be made", func(t *testing.T) {
		withFake(t, &newWorkspace, fakeFullDisk)
		ep, _ := runQuick(t, Config{}, doneTrack)
		if !ep.Lost() || ep.ErrorKind != record.ErrorFault || !strings.Contains(ep.Error, "making the workspace") {
			t.Fatalf("kind %q, lost %v: %s", ep.ErrorKind, ep.Lost(), ep.Error)
		}
	})
	t.Run("workspace cannot be removed", func(t *testing.T) {
		// The fake removes the folder (no litter) and says it could not.
		withFake(t, &removeWorkspace, func(w *scratch.Workspace) error {
			w.Remove()
			return &os.PathError{Op: "unlinkat", Path: w.Dir + "/x", Err: syscall.EBUSY}
		})
		ep, traj := runQuick(t, Config{}, doneTrack)
		if !ep.Lost() || ep.ErrorKind != record.ErrorFault || !strings.Contains(ep.Error, "removing the workspace") {
			t.Fatalf("kind %q, lost %v: %s", ep.ErrorKind, ep.Lost(), ep.Error)
		}
		if end := traj.Last(); end.Path == "" {
			t.Error("the end event does not name the workspace left behind")
		}
	})
	for name, fn := range map[string]track.Func{"no memory": enomem, "no file descriptors": emfile} {
		t.Run(name, func(t *testing.T) {
			if ep, _ := runQuick(t, Config{}, fn); !ep.Lost() || ep.ErrorKind != record.ErrorFault {
				t.Fatalf("kind %q, lost %v: %s", ep.ErrorKind, ep.Lost(), ep.Error)
			}
		})
	}
	// The control: a failure of bench's logic, which a model can provoke,
	// is no fault and stands, so the check above can fail.
	bug := func(context.Context, *track.Env) track.Outcome {
		return track.Outcome{Exit: record.ExitError, Err: errors.New("grading: the seal does not match")}
	}
	if ep, _ := runQuick(t, Config{}, bug); ep.Lost() || ep.ErrorKind != record.ErrorHarness {
		t.Fatalf("a logic failure: kind %q, lost %v", ep.ErrorKind, ep.Lost())
	}
}

// TestFullDiskStopsTheRunAtOnce: the first episode lost to a full disk
// stops the run, saying so; its server stays well.
func TestFullDiskStopsTheRunAtOnce(t *testing.T) {
	withFake(t, &newWorkspace, fakeFullDisk)
	sink := &tracktest.MemSink[Trajectory]{}
	err := RunPool(context.Background(), Config{RunID: "r", Tracks: []track.Track{{Name: "fake", Run: doneTrack}}}, onePool(1), sink, seedJobs(6), PoolOptions{})
	var stop *StopError
	if !errors.As(err, &stop) || !stop.NoSpace || !strings.Contains(err.Error(), "disk is full") || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("err %v, want a StopError for the full disk", err)
	}
	if len(sink.Episodes()) != 1 || !sink.Episodes()[0].Lost() {
		t.Fatalf("%d episodes recorded, want the one lost", len(sink.Episodes()))
	}
}

// TestFaultsInARowStopTheRun: BreakerThreshold episodes in a row lost to
// faults stop the run, even on a pool whose servers are well, and none is
// taken out; an episode that stands in between starts the count again.
func TestFaultsInARowStopTheRun(t *testing.T) {
	n := 0
	flaky := func(context.Context, *track.Env) track.Outcome {
		n++
		if n == 3 { // one that stands, after two faults
			return track.Outcome{Exit: record.ExitDone}
		}
		return track.Outcome{Exit: record.ExitError, Err: fmt.Errorf("running the tests: %w", syscall.ENOMEM)}
	}
	sink := &tracktest.MemSink[Trajectory]{}
	var warned []string
	err := RunPool(context.Background(), Config{RunID: "r", Tracks: []track.Track{{Name: "fake", Run: flaky}}}, onePool(1), sink, seedJobs(10),
		PoolOptions{Warn: func(w string) { warned = append(warned, w) }})
	var stop *StopError
	if !errors.As(err, &stop) || stop.Lost != BreakerThreshold || !strings.Contains(err.Error(), "faults of this machine") {
		t.Fatalf("err %v, want the breaker's StopError for faults", err)
	}
	if got := len(sink.Episodes()); got != 3+BreakerThreshold {
		t.Errorf("%d episodes recorded, want 2 lost, 1 standing, then %d lost", got, BreakerThreshold)
	}
	if len(warned) != 0 {
		t.Errorf("a server was taken out for the machine's faults: %q", warned)
	}
}

// fakeBrokenTrajectory is a trajectory whose writes fail with err from the
// first event on, as on a full disk.
type fakeBrokenTrajectory struct {
	tracktest.MemTrajectory
	err error
}

func (f *fakeBrokenTrajectory) Err() error { return f.err }

// brokenSink hands out fakeBrokenTrajectory trajectories, or fails to open
// one when open is set.
type brokenSink struct {
	tracktest.MemSink[Trajectory]
	err  error
	open bool
}

func (s *brokenSink) Trajectory(record.Episode) (Trajectory, error) {
	if s.open {
		return nil, s.err
	}
	return &fakeBrokenTrajectory{err: s.err}, nil
}

// TestEpisodeWithoutItsTrajectoryIsLost: an episode is finished only when
// its trajectory is on disk whole: one that could not be opened or written
// is lost to a fault, though it passed, and a full disk stops the run.
func TestEpisodeWithoutItsTrajectoryIsLost(t *testing.T) {
	enospc := &os.PathError{Op: "write", Path: "trajectories/quick/fake/seed-1.jsonl", Err: syscall.ENOSPC}
	eio := &os.PathError{Op: "write", Path: "trajectories/quick/fake/seed-1.jsonl", Err: syscall.EIO}
	for _, c := range []struct {
		name string
		sink *brokenSink
		full bool
	}{
		{"written, disk full", &brokenSink{err: enospc}, true},
		{"written, disk failing", &brokenSink{err: eio}, false},
		{"opened, disk full", &brokenSink{err: enospc, open: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{RunID: "r", Tracks: []track.Track{{Name: "fake", Run: doneTrack}}}
			err := RunPool(context.Background(), cfg, onePool(1), c.sink, seedJobs(4), PoolOptions{})
			eps := c.sink.Episodes()
			if len(eps) == 0 || !eps[0].Lost() || eps[0].ErrorKind != record.ErrorFault || !strings.Contains(eps[0].Error, "trajectory") {
				t.Fatalf("episodes %+v: want the first lost to a fault of its trajectory", eps)
			}
			var stop *StopError
			if c.full && (!errors.As(err, &stop) || !stop.NoSpace || len(eps) != 1) {
				t.Errorf("err %v after %d episodes, want the run stopped at the first", err, len(eps))
			}
		})
	}
}

// TestUnrecordedEpisodeStopsTheRun: an episode whose line cannot be
// appended is not on disk (--resume redoes it) and the run stops, saying
// why, as a StopError.
func TestUnrecordedEpisodeStopsTheRun(t *testing.T) {
	sink := &tracktest.MemSink[Trajectory]{FailAt: 2}
	err := RunPool(context.Background(), Config{RunID: "r", Tracks: []track.Track{{Name: "fake", Run: doneTrack}}}, onePool(1), sink, seedJobs(5), PoolOptions{})
	var stop *StopError
	if !errors.As(err, &stop) || stop.Last.ErrorKind != record.ErrorFault || !strings.Contains(err.Error(), "recording the episode") {
		t.Fatalf("err %v, want a StopError naming the episode that could not be recorded", err)
	}
	if len(sink.Episodes()) != 1 {
		t.Fatalf("%d episodes recorded, want 1", len(sink.Episodes()))
	}
}
