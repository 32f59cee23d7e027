package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/plan"
	"bench/preflight"
	"bench/progress"
	"bench/runflags"
	"bench/runner"
	"bench/tasks"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run the experiment: tasks × tracks × seeds against a model, recorded in a results folder",
		ArgsUsage: " ",
		Description: "Runs every task × track × seed as one episode (a fresh copy of the task, one track, graded with the\n" +
			"pristine tests), records each in the results folder as it finishes, then prints the report on stdout.\n" +
			"Progress goes to stderr. The doctor's checks run first; nothing is created if they fail. Ctrl-C stops\n" +
			"cleanly (again to quit at once); --resume DIR finishes the run.\n\n" +
			"Examples:\n" +
			"  bench run --tracks workflow,agent --seeds 1 --out results/lesson\n" +
			"  bench run --tasks parse_date --tracks agent --seeds 1,2,3,1 --out results/twins\n" +
			"  bench run --tracks oracle                        # no model needed\n" +
			"  bench run --model qwen3:8b,gemma3:4b --host http://gpu1:11434,http://gpu2:11434 --seeds 1,2,3\n" +
			"  bench run --shard 2/3 --seeds 1,2,3 --out results/sweep/shard-2   # one of three machines\n" +
			"  bench run --resume results/lesson",
		Flags: slices.Concat(runflags.Model(), []cli.Flag{
			runflags.Tasks("comma-separated task names, or all (default: the four course tasks)"),
			runflags.TasksDir(),
			runflags.Tracks("workflow,agent", "comma-separated tracks: "+strings.Join(runner.TrackWords(), ", ")),
			&cli.StringFlag{Name: "seeds", Aliases: []string{"seed"}, Value: "1", Usage: "comma-separated seeds and ranges (1..8); a repeated seed is a twin run"},
		}, runflags.Settings(), []cli.Flag{
			&cli.StringFlag{Name: "shard", Usage: "run part i of n of the plan (i/n, e.g. 2/3): the same split on every machine; merge the parts with bench report A B C"},
			&cli.StringFlag{Name: "run-uid", Usage: "the run's identity in run.json (default: a new random one); give every shard of one sweep the same to report them as one run"},
			runflags.Sandbox(),
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "results folder (default: " + runner.ResultsDir + "/<UTC time>-<model>)"},
			&cli.StringFlag{Name: "resume", Usage: "finish the run in this results folder, as its run.json describes it (only --host, --parallel, --parallel-per-host, --timeout, --retry-window, --tasks-dir, --sandbox, --keep-workspaces and --format may be given)"},
			&cli.BoolFlag{Name: "keep-workspaces", Usage: "keep each episode's workspace after grading"},
			replayFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "print the plan (tasks × tracks × models × seeds, shard, hosts), its episodes and the most model calls and reply tokens it may spend, and exit: no server is asked, nothing is written"},
			&cli.StringFlag{Name: "calibrate", Usage: "estimate the wall time from the episodes of a previous run of the same model in `DIR` (else the estimate comes after the first episodes)"},
			formatFlag(reportFormats...),
		}),
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	cliexit.StopCleanly(c.Context, runInterruptNotice)
	if handled, err := replayHook(c); handled {
		return err
	}
	if c.Args().Present() {
		return usagef("run takes no arguments, got %q; name tasks with --tasks", c.Args().First())
	}
	if err := checkFormat(c.String("format")); err != nil {
		return err
	}
	s, err := session(c)
	if err != nil {
		return err
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(c.App.ErrWriter, "warning:", w)
	}
	pl, est, err := plan.ForRun(s, cmp.Or(c.String("resume"), c.String("out")), c.String("calibrate"))
	if err != nil {
		return err
	}
	if c.Bool("dry-run") {
		return plan.WriteDry(c.App.Writer, pl, s, est)
	}
	mode, err := runflags.SandboxMode(c)
	if err != nil {
		return err
	}
	asked, ok := preflight.Ready(c.Context, c.App.ErrWriter, s, mode)
	if !ok {
		return cliexit.Silent(exitFailure)
	}
	if err := preflight.UseSandbox(c.App.ErrWriter, s, mode); err != nil {
		return err
	}
	servers, err := s.ConnectInspected(asked) // what the checks asked: each server once
	if err != nil {
		return err
	}
	// Progress goes to stderr so that `bench run > report.txt` keeps only the report.
	if err := progress.Execute(c.Context, c.App.ErrWriter, s, servers, pl, est, c.Bool("keep-workspaces")); err != nil {
		return err
	}
	return printReport(c, s.Dir, c.String("format"))
}

// runInterruptNotice is what the first interrupt of bench run prints.
const runInterruptNotice = "\ninterrupt: no new episodes; stopping the running ones (press Ctrl-C again to quit at once)"

// session makes the run's Session from the flags, or from the run.json of --resume.
func session(c *cli.Context) (*runner.Session, error) {
	if dir := c.String("resume"); dir != "" {
		opts, err := runflags.Resume(c, dir)
		if err != nil {
			return nil, err
		}
		all, err := tasks.Catalogue(c.String("tasks-dir"))
		if err != nil {
			return nil, err
		}
		return runner.Resume(dir, all, opts)
	}
	spec, err := runflags.Spec(c, version())
	if err != nil {
		return nil, err
	}
	if err := spec.Check(); err != nil {
		return nil, usage(err) // every check of the spec is on a flag's value
	}
	return runner.NewRun(spec)
}

// checkFormat checks the --format of the final report.
func checkFormat(f string) error {
	_, err := reportWriter(f)
	return err
}
