package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v2"

	"bench/internal/words"
	pf "bench/preflight"
	"bench/progress"
	"bench/record"
	"bench/replay"
	"bench/runner"
	"bench/tasks"
)

// replayFlag is bench run's --replay.
func replayFlag() cli.Flag {
	return &cli.StringFlag{Name: "replay", Usage: "replay the recorded run in `DIR` without a model: every reply as recorded, the tools, tests and grading fresh; only --out, --tasks-dir, --parallel, --sandbox, --workspace-limit, --keep-workspaces and --format may be given"}
}

// replayNoServerFlags are the flags of a model server, which a replay
// never contacts.
var replayNoServerFlags = []string{"host", "timeout", "retry-window", "parallel-per-host"}

// replayHook runs bench run --replay, and refuses --resume of a replay
// run; handled is false when the run is neither, for runAction to go on.
func replayHook(c *cli.Context) (handled bool, err error) {
	if c.IsSet("replay") {
		return true, runReplay(c)
	}
	if dir := c.String("resume"); dir != "" {
		if f, err := record.OpenFolder(dir); err == nil && f.Run.ReplayOf != nil {
			return true, fmt.Errorf("%s is a replay of the run in %s, and a replay is not resumed: replay the recording again with bench run --replay %s --out NEW",
				dir, f.Run.ReplayOf.Dir, f.Run.ReplayOf.Dir)
		}
	}
	return false, nil
}

// replayFlagsError refuses the flags a replay does not take: those that
// define a run (the recording defines them), --resume and the model
// server's.
func replayFlagsError(c *cli.Context, dir string) error {
	for _, f := range runDefiningFlags {
		if f != "out" && c.IsSet(f) {
			return usagef("--replay runs as the recording %s describes it, so --%s cannot be given: drop it (a new run with other settings needs a model: bench run without --replay)", filepath.Join(dir, record.RunFile), f)
		}
	}
	if c.IsSet("resume") {
		return usagef("--replay and --resume cannot be given together: --replay DIR makes a new run from a recording, --resume DIR finishes a run")
	}
	for _, f := range []string{"dry-run", "calibrate"} {
		if c.IsSet(f) {
			return usagef("--replay has no plan to estimate: it replays the recording's episodes, so --%s cannot be given with it", f)
		}
	}
	for _, f := range replayNoServerFlags {
		if c.IsSet(f) {
			return usagef("--replay contacts no model server, so --%s means nothing: drop it", f)
		}
	}
	return nil
}

// runReplay replays the recording of --replay into a new run folder and
// prints its report.
func runReplay(c *cli.Context) error {
	dir := c.String("replay")
	if c.Args().Present() {
		return usagef("run takes no arguments, got %q", c.Args().First())
	}
	if dir == "" {
		return usagef("--replay needs the recorded run's folder: bench run --replay DIR")
	}
	if err := replayFlagsError(c, dir); err != nil {
		return err
	}
	if err := checkFormat(c.String("format")); err != nil {
		return err
	}
	all, err := tasks.Catalogue(c.String("tasks-dir"))
	if err != nil {
		return err
	}
	src, err := replay.Open(dir, all)
	if err != nil {
		return err
	}
	errw := c.App.ErrWriter
	for _, w := range src.Warnings {
		fmt.Fprintln(errw, "warning:", w)
	}
	for _, ch := range src.Changed {
		fmt.Fprintln(errw, "warning:", ch)
	}
	if err := runner.CheckParallel(c.Int("parallel")); err != nil {
		return err
	}
	rr, err := runner.NewReplay(runner.ReplaySpec{Source: src, Dir: c.String("out"), Parallel: c.Int("parallel"), BenchVersion: version()})
	if err != nil {
		return err
	}
	ctx := c.Context
	if err := replayReady(ctx, c, rr); err != nil {
		return err
	}
	return executeReplay(ctx, c, rr)
}

// replayReady makes the checks of this machine a replay needs (python3,
// the sandbox, the tasks; no model server), puts the test runs in the
// sandbox and records it. The workspace limit is the recording's.
func replayReady(ctx context.Context, c *cli.Context, rr *runner.ReplayRun) error {
	mode, err := sandboxMode(c)
	if err != nil {
		return err
	}
	res := pf.Gather(ctx, nil, pf.Needs{Tracks: slices.Clone(rr.Run.Tracks), Sandbox: mode}, rr.Tasks)
	if !pf.OK(res.Checks) {
		for _, ch := range res.Checks {
			fmt.Fprintln(c.App.ErrWriter, ch)
		}
		fmt.Fprintln(c.App.ErrWriter, "The checks of this machine above failed (each says how to fix it). Nothing was created or changed.")
		return cli.Exit("", 1)
	}
	s := &runner.Session{Dir: rr.Dir, Run: rr.Run, Tasks: rr.Tasks}
	if err := useSandbox(c.App.ErrWriter, s, mode); err != nil {
		return err
	}
	rr.Run.Sandbox = s.Run.Sandbox
	return nil
}

// executeReplay replays the episodes with progress on stderr, then prints
// the report; a replay stopped early says what stands.
func executeReplay(ctx context.Context, c *cli.Context, rr *runner.ReplayRun) error {
	out := c.App.ErrWriter
	jobs, of := rr.Jobs(), rr.Run.ReplayOf
	fmt.Fprintf(out, "bench run --replay: %s of run %s (%s) into %s, no model server", words.Plural(len(jobs), "episode"), of.ID, of.Dir, rr.Dir)
	if n := len(of.Skipped); n > 0 {
		fmt.Fprintf(out, "; %d not replayed (lost or interrupted in the recording)", n)
	}
	fmt.Fprintln(out)
	prog := progress.New(out, len(jobs), 0, 0)
	err := rr.Execute(ctx, runner.ExecOptions{Keep: c.Bool("keep-workspaces"), Start: prog.Begin, Progress: prog.Episode})
	prog.Finish()
	var stopped *runner.StopError
	switch {
	case errors.As(err, &stopped):
		fmt.Fprintf(out, "bench run --replay: %v.\n%s; the episodes replayed so far are in %s\n", err, stopped.Remedy(), rr.Dir)
		return cli.Exit("", 1)
	case err != nil:
		return err
	case ctx.Err() != nil:
		fmt.Fprintf(out, "interrupted: %d of %d episodes are replayed in %s; replay again with: bench run --replay %s --out NEW\n", prog.Done(), len(jobs), rr.Dir, of.Dir)
		return cli.Exit("", 130)
	}
	return printReport(c, rr.Dir, c.String("format"))
}
