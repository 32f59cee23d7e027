package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"bench/internal/inert"
	"bench/internal/table"
	"bench/report/output"
	"bench/report/predict"
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
	dirs, err := argsWithTrailingFlags(c)
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
	file, err := predict.Load(c.String("predictions"))
	if err != nil {
		return err
	}
	agg, err := output.Read(dirs)
	if err != nil {
		return err
	}
	for _, w := range agg.Warnings() {
		fmt.Fprintln(c.App.ErrWriter, "warning:", inert.Line(w)) // a warning can quote a skipped line's bytes
	}
	rep := agg.Report()
	score, err := predict.Check(file, rep.Observed())
	if err != nil {
		return err
	}
	if err := predict.Write(c.App.Writer, score, format); err != nil {
		return err
	}
	return writeMisses(c.App.Writer, rep.ExplainMisses(score), format)
}

// writeMisses writes, after the score in text and Markdown, why each
// missed prediction missed, one sentence each (CSV and JSON keep their
// shapes).
func writeMisses(w io.Writer, misses []string, format string) error {
	if len(misses) == 0 || (format != table.Text && format != table.Markdown) {
		return nil
	}
	head, bullet := "\nWhy the misses missed (the causes of the failures; docs/RESULTS.md lists them):\n", "  "
	if format == table.Markdown {
		head, bullet = "\n## Why the misses missed\n\n", "- "
	}
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	for _, m := range misses {
		if _, err := fmt.Fprintln(w, bullet+m); err != nil {
			return err
		}
	}
	return nil
}
