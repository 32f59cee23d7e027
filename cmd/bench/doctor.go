package main

import (
	"slices"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/internal/table"
	"bench/preflight"
	"bench/runflags"
	"bench/runner"
)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that a run can start: model server, model, tool support, python3, the sandbox, tasks",
		ArgsUsage: " ",
		Flags: slices.Concat(runflags.Model(), []cli.Flag{
			runflags.Tracks("", "check only what these comma-separated tracks need (default: all)"),
			runflags.Tasks("comma-separated tasks to give the oracle check, or all (default: those bench run takes)"),
		}, runflags.DoctorSettings(), []cli.Flag{
			runflags.Sandbox(),
			formatFlag(table.Text, table.JSON),
			runflags.TasksDir(),
		}),
		Description: "Prints one line per check, with the fix for each that fails, and exits 1 unless all pass.\n" +
			"--host and --model take comma-separated lists, as bench run does: every server and model is checked.\n" +
			"With --tracks, checks only what those tracks need: tool support only for a track that gives the\n" +
			"model tools (agent), no model server at all for oracle. bench run makes the same checks before it starts.\n\n" +
			"Examples:\n" +
			"  bench doctor\n" +
			"  bench doctor --tracks workflow                  # a model without tool support is fine\n" +
			"  bench doctor --host http://gpu1:11434,http://gpu2:11434 --model qwen3:8b,gemma3:4b\n" +
			"  bench doctor --tracks hybrid --workflow-model qwen3:1.7b     # the hybrid's second model too\n" +
			"  bench doctor --backend openai --host http://127.0.0.1:8080/v1 --model qwen3-8b",
		Action: doctorAction,
	}
}

// doctorAction makes the checks of the run the flags describe, as bench
// run makes them (preflight.ForSession), and prints them.
func doctorAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("doctor takes no arguments, got %q; bench doctor --help lists the flags", c.Args().First())
	}
	format, err := pickFormat(c, table.Text, table.JSON)
	if err != nil {
		return err
	}
	spec, err := runflags.DoctorSpec(c)
	if err != nil {
		return err
	}
	mode, err := runflags.SandboxMode(c)
	if err != nil {
		return err
	}
	if err := spec.Check(); err != nil {
		return usage(err)
	}
	s, err := runner.NewRun(spec)
	if err != nil {
		return err
	}
	checks := preflight.ForSession(c.Context, s, mode).Checks
	write := preflight.WriteText
	if format == table.JSON {
		write = preflight.WriteJSON
	}
	if err := write(c.App.Writer, checks); err != nil {
		return err
	}
	if !preflight.OK(checks) {
		return cliexit.Silent(exitFailure)
	}
	return nil
}
