package main

import (
	"cmp"
	"fmt"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/preflight"
	"bench/progress"
	"bench/record"
	"bench/replay"
	"bench/runflags"
	"bench/runner"
	"bench/tasks"
)

// replayFlag is bench run's --replay.
func replayFlag() cli.Flag {
	return &cli.StringFlag{Name: "replay", Usage: "replay the recorded run in `DIR` without a model: every reply as recorded, the tools, tests and grading fresh; only --out, --tasks-dir, --parallel, --sandbox, --workspace-limit, --keep-workspaces and --format may be given"}
}

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
	if err := runflags.CheckReplay(c, dir); err != nil {
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
	rr, err := runner.NewReplay(runner.ReplaySpec{Source: src, Dir: c.String("out"), Parallel: c.Int("parallel"), BenchVersion: version()})
	if err != nil {
		return err
	}
	mode, err := runflags.SandboxMode(c)
	if err != nil {
		return err
	}
	if ok, err := preflight.ReplayReady(c.Context, errw, rr, mode); !ok {
		return cmp.Or(err, cliexit.Silent(exitFailure))
	}
	if err := progress.Replay(c.Context, errw, rr, c.Bool("keep-workspaces")); err != nil {
		return err
	}
	return printReport(c, rr.Dir, c.String("format"))
}
