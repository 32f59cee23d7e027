package main

import (
	"github.com/urfave/cli/v2"

	"bench/internal/table"
	"bench/report/output"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "score predictions written with bench predict against what happened in runs",
		ArgsUsage: "RUN_DIR...",
		Description: "A task's outcome is \"workflow\" if the workflow track passed in most of its counted episodes,\n" +
			"else \"agent\" if the agent track did, else \"neither\" (a tie is not most; several run folders are\n" +
			"merged). Episodes count exactly as in bench report: lost and interrupted ones are left out, inconsistent\n" +
			"ones are failures, a run given twice counts once, and with several models each task is scored once per\n" +
			"model. Predictions written after a\n" +
			"run started are refused. When run.json records the tasks' designed answers, each question is\n" +
			"scored too: how often the predicted answer matched the designed one.\n\n" +
			"Text and Markdown hold both tables, the score and a legend; CSV holds the per-task table\n" +
			"alone; JSON holds everything.\n\n" +
			"Example:\n" +
			"  bench check --predictions predictions.json results/lesson",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "predictions", Usage: "the predictions `FILE` written by bench predict (required)"},
			formatFlag(table.Formats...),
		},
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	dirs, err := posArgs(c)
	if err != nil {
		return err
	}
	format, err := pickFormat(c, table.Formats...)
	if err != nil {
		return err
	}
	if c.String("predictions") == "" {
		return usagef("check needs --predictions FILE, the file bench predict wrote before the run: bench check --predictions FILE RUN_DIR [RUN_DIR ...] (one or more run folders)")
	}
	if len(dirs) == 0 {
		return usagef("name at least one run folder: bench check --predictions FILE RUN_DIR [RUN_DIR ...]")
	}
	return output.Check(c.App.Writer, c.App.ErrWriter, c.String("predictions"), dirs, format)
}
