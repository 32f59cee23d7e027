package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"bench/internal/table"
	"bench/record"
	"bench/report/predict"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "score predictions written with bench predict against what happened in runs",
		ArgsUsage: "RUN_DIR...",
		Description: "A task's outcome is \"workflow\" if the workflow track passed in most of its episodes,\n" +
			"else \"agent\" if the agent track did, else \"neither\" (a tie is not most; interrupted\n" +
			"episodes are left out; several run folders are merged). Predictions written after a\n" +
			"run started are refused. When run.json records the tasks' designed answers, each question is\n" +
			"scored too: how often the predicted answer matched the designed one.\n\n" +
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
		return errors.New("check needs --predictions FILE, the file bench predict wrote before the run: bench check --predictions FILE RUN_DIR [RUN_DIR ...] (one or more run folders)")
	}
	if len(dirs) == 0 {
		return errors.New("name at least one run folder: bench check --predictions FILE RUN_DIR [RUN_DIR ...]")
	}
	file, err := predict.Load(c.String("predictions"))
	if err != nil {
		return err
	}
	var runs []record.Data
	for _, dir := range dirs {
		data, err := record.Read(dir)
		if err != nil {
			return withRunsInside(dir, err)
		}
		for _, w := range data.Warnings {
			fmt.Fprintln(c.App.ErrWriter, "warning:", w)
		}
		runs = append(runs, data)
	}
	score, err := predict.Check(file, runs)
	if err != nil {
		return err
	}
	return writeScore(c.App.Writer, score, format)
}

// writeScore writes the checked predictions: predict.Render's table and
// score for text; the table alone for Markdown and CSV (what cannot be
// scored goes to the JSON); everything for JSON.
func writeScore(w io.Writer, s predict.Score, format string) error {
	header := []string{"task", "answers", "predicted", "workflow", "agent", "observed", "right"}
	rows := make([][]string, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = []string{r.Task, r.Answers.String(), r.Prediction.Prediction, r.Workflow.String(), r.Agent.String(), r.Observed, yesNo(r.Right)}
	}
	switch format {
	case table.Text:
		return predict.Render(w, s)
	case table.JSON:
		type rowJSON struct {
			Task      string `json:"task"`
			Answers   string `json:"answers"`
			Predicted string `json:"predicted"`
			Workflow  string `json:"workflow"`
			Agent     string `json:"agent"`
			Observed  string `json:"observed"`
			Right     bool   `json:"right"`
		}
		out := struct {
			Right       int                     `json:"right"`
			Counted     int                     `json:"counted"`
			Rows        []rowJSON               `json:"rows"`
			Missing     []predict.Missing       `json:"not_counted"`
			Unpredicted []string                `json:"unpredicted"`
			Questions   []predict.QuestionScore `json:"questions,omitempty"` // against the designed answers in run.json
		}{Right: s.Right, Counted: s.Counted(), Rows: []rowJSON{}, Missing: s.Missing, Unpredicted: s.Unpredicted, Questions: s.Questions}
		for i, r := range s.Rows {
			out.Rows = append(out.Rows, rowJSON{rows[i][0], rows[i][1], rows[i][2], rows[i][3], rows[i][4], rows[i][5], r.Right})
		}
		return writeJSON(w, out)
	}
	return table.Write(w, format, header, rows)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
