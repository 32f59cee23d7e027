package predict

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"bench/internal/inert"
	"bench/internal/table"
	"bench/lesson"
)

// Write writes the score in format, one of table.Formats. Text and
// Markdown hold the per-task table, the score, the per-question table, what
// was not counted and a legend; CSV holds the per-task table alone (one
// table, for a spreadsheet); JSON holds everything.
func Write(w io.Writer, s Score, format string) error {
	switch format {
	case table.JSON:
		return writeJSON(w, s)
	case table.CSV:
		return table.Write(w, format, taskHeaderOf(s), taskRows(s))
	case table.Text, "", table.Markdown:
		return writeProse(w, s, format)
	}
	return table.Write(w, format, nil, nil) // the table package names the formats
}

var (
	taskHeader     = []string{"task", "answers", "predicted", "workflow", "agent", "observed", "right"}
	questionHeader = []string{"question", "matched", "predicted otherwise"}
)

// taskHeaderOf is the per-task table's header: with a model column when
// the runs hold several models.
func taskHeaderOf(s Score) []string {
	if s.Models {
		return slices.Insert(slices.Clone(taskHeader), 1, "model")
	}
	return taskHeader
}

// taskRows is one row per scored task (and model).
func taskRows(s Score) [][]string {
	rows := make([][]string, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = []string{r.Task, r.Answers.String(), r.Prediction.Prediction, r.Workflow.String(), r.Agent.String(), r.Observed, yesNo(r.Right)}
		if s.Models {
			rows[i] = slices.Insert(rows[i], 1, r.Model)
		}
	}
	return rows
}

// questionRows is one row per question scored against the designed answers.
func questionRows(qs []QuestionScore) [][]string {
	rows := make([][]string, len(qs))
	for i, q := range qs {
		rows[i] = []string{strconv.Itoa(q.Question), fmt.Sprintf("%d/%d", q.Matched, q.Counted), strings.Join(q.Mismatched, ", ")}
	}
	return rows
}

// writeProse writes the tables with the lines between them, as text or
// Markdown.
func writeProse(w io.Writer, s Score, format string) error {
	md := format == table.Markdown
	if len(s.Rows) > 0 {
		if err := table.Write(w, format, taskHeaderOf(s), taskRows(s)); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if s.Models {
		fmt.Fprintf(w, "score: %d/%d predictions right (each task scored once per model)\n", s.Right, s.Counted())
	} else {
		fmt.Fprintf(w, "score: %d/%d predictions right\n", s.Right, s.Counted())
	}
	if len(s.Questions) > 0 {
		fmt.Fprintln(w, "\nper question, predicted answers that match the task's designed answer:")
		if md {
			fmt.Fprintln(w)
		}
		if err := table.Write(w, format, questionHeader, questionRows(s.Questions)); err != nil {
			return err
		}
	}
	var b strings.Builder
	safe := inert.Line
	if md {
		safe = inert.Markdown
	}
	if len(s.Missing) > 0 {
		b.WriteString("\nnot counted:\n")
		for _, m := range s.Missing {
			task := m.Task
			if m.Model != "" {
				task += " (" + m.Model + ")"
			}
			fmt.Fprintf(&b, "%s%s: %s\n", item(md), safe(task), safe(m.Reason))
		}
	}
	if len(s.Unpredicted) > 0 {
		fmt.Fprintf(&b, "\nin the run but not predicted: %s\n", safe(strings.Join(s.Unpredicted, ", ")))
	}
	b.WriteString(legend(md))
	_, err := io.WriteString(w, b.String())
	return err
}

// item starts a list item: indented text, or a Markdown bullet.
func item(md bool) string {
	if md {
		return "- "
	}
	return "  "
}

// legend explains the columns and the questions under the tables.
func legend(md bool) string {
	var b strings.Builder
	b.WriteString("\nanswers: one letter per question, y or n:\n")
	if md {
		b.WriteString("\n")
	}
	for i, q := range lesson.Questions {
		if md {
			fmt.Fprintf(&b, "%d. %s\n", i+1, q)
		} else {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, q)
		}
	}
	b.WriteString("\nAll yes predicts \"workflow\" (the workflow is enough); anything else \"agent\" (it needs an agent).\n" +
		"observed: \"workflow\" if the workflow passed in most of its counted episodes, else \"agent\" if\n" +
		"the agent did, else \"neither\"; a tie is not most. Episodes count as in bench report: lost and\n" +
		"interrupted ones are left out, inconsistent ones are failures.\n")
	return b.String()
}

// writeJSON writes the whole score as one indented JSON object.
func writeJSON(w io.Writer, s Score) error {
	type rowJSON struct {
		Task      string `json:"task"`
		Model     string `json:"model,omitempty"`
		Answers   string `json:"answers"`
		Predicted string `json:"predicted"`
		Workflow  string `json:"workflow"`
		Agent     string `json:"agent"`
		Observed  string `json:"observed"`
		Right     bool   `json:"right"`
	}
	out := struct {
		Right       int             `json:"right"`
		Counted     int             `json:"counted"`
		Rows        []rowJSON       `json:"rows"`
		Missing     []Missing       `json:"not_counted"`
		Unpredicted []string        `json:"unpredicted"`
		Questions   []QuestionScore `json:"questions,omitempty"` // against the designed answers in run.json
	}{Right: s.Right, Counted: s.Counted(), Rows: []rowJSON{}, Missing: s.Missing, Unpredicted: s.Unpredicted, Questions: s.Questions}
	for _, r := range s.Rows {
		out.Rows = append(out.Rows, rowJSON{r.Task, r.Model, r.Answers.String(), r.Prediction.Prediction, r.Workflow.String(), r.Agent.String(), r.Observed, r.Right})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
