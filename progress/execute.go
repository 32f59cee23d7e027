package progress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"bench/internal/cliexit"
	"bench/internal/words"
	"bench/plan"
	"bench/record"
	"bench/runner"
)

// Execute runs the pending episodes of s on servers with progress on w,
// after the plan's lines (plan.WriteLines), keeping the workspaces when
// keep. A run stopped early says how to resume it and returns an error
// that exits 1; an interrupted one says what stands and returns one that
// exits 130; nil when every episode ran.
func Execute(ctx context.Context, w io.Writer, s *runner.Session, servers []runner.Server, pl plan.Plan, est *plan.Estimator, keep bool) error {
	plan.WriteLines(w, pl, s, servers, est)
	planned, pending := s.Plan(), s.Pending()
	if keep {
		fmt.Fprintf(w, "workspaces are kept under %s (bench-<task>-*); each trajectory's end event names its own\n", os.TempDir())
	}
	done, passed := s.Finished()
	prog := New(w, len(planned), done, passed)
	prog.Expect(pending, est, len(pl.Models) > 1)
	var stand atomic.Int64 // the planned episodes that stand on disk: not lost, not interrupted
	stand.Store(int64(done))
	count := func(ep record.Episode) {
		if runner.Finished(ep) {
			stand.Add(1)
		}
		prog.Episode(ep)
	}
	runErr := s.Execute(ctx, servers, runner.ExecOptions{Keep: keep, Start: prog.Begin, Call: prog.Call, Progress: count, Warn: func(m string) { fmt.Fprintln(w, "warning:", m) }})
	prog.Finish()
	var stopped *runner.StopError
	switch {
	case errors.As(runErr, &stopped):
		fmt.Fprintf(w, "bench run: %v.\n%d of %d episodes stand in %s; the lost ones are not counted and will be redone.\n%s, resume with: bench run --resume %s\n", runErr, stand.Load(), len(planned), pl.Dir, stopped.Remedy(), pl.Dir)
		return cliexit.Silent(cliexit.Failure)
	case runErr != nil:
		return runErr
	case ctx.Err() != nil:
		fmt.Fprintf(w, "interrupted: %d of %d episodes are recorded in %s (episodes cut short are marked interrupted and will be redone).\nResume with: bench run --resume %s\n", prog.Done(), len(planned), pl.Dir, pl.Dir)
		if note := cliexit.GoRunNote(os.Args[0]); note != "" {
			fmt.Fprintln(w, note)
		}
		return cliexit.Silent(cliexit.Interrupted)
	}
	return nil
}

// Replay replays the episodes of rr with progress on w, keeping the
// workspaces when keep; a replay stopped early says what stands and
// returns an error that exits 1, or 130 when interrupted.
func Replay(ctx context.Context, w io.Writer, rr *runner.ReplayRun, keep bool) error {
	jobs, of := rr.Jobs(), rr.Run.ReplayOf
	fmt.Fprintf(w, "bench run --replay: %s of run %s (%s) into %s, no model server", words.Plural(len(jobs), "episode"), of.ID, of.Dir, rr.Dir)
	if n := len(of.Skipped); n > 0 {
		fmt.Fprintf(w, "; %d not replayed (lost or interrupted in the recording)", n)
	}
	fmt.Fprintln(w)
	prog := New(w, len(jobs), 0, 0)
	err := rr.Execute(ctx, runner.ExecOptions{Keep: keep, Start: prog.Begin, Progress: prog.Episode})
	prog.Finish()
	var stopped *runner.StopError
	switch {
	case errors.As(err, &stopped):
		fmt.Fprintf(w, "bench run --replay: %v.\n%s; the episodes replayed so far are in %s\n", err, stopped.Remedy(), rr.Dir)
		return cliexit.Silent(cliexit.Failure)
	case err != nil:
		return err
	case ctx.Err() != nil:
		fmt.Fprintf(w, "interrupted: %d of %d episodes are replayed in %s; replay again with: bench run --replay %s --out NEW\n", prog.Done(), len(jobs), rr.Dir, of.Dir)
		return cliexit.Silent(cliexit.Interrupted)
	}
	return nil
}
