package predict

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Render writes the comparison table, the score and the tasks not counted.
func Render(w io.Writer, s Score) error {
	table := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	table.Header("task", "answers", "predicted", "workflow", "agent", "observed", "right?")
	for _, r := range s.Rows {
		right := "no"
		if r.Right {
			right = "yes"
		}
		if err := table.Append(r.Task, r.Answers.String(), r.Prediction.Prediction, r.Workflow.String(), r.Agent.String(), r.Observed, right); err != nil {
			return err
		}
	}
	if len(s.Rows) > 0 {
		if err := table.Render(); err != nil {
			return err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "score: %d/%d predictions right\n", s.Right, s.Counted())
	renderQuestions(&b, s.Questions)
	if len(s.Missing) > 0 {
		b.WriteString("not counted:\n")
		for _, m := range s.Missing {
			fmt.Fprintf(&b, "  %s: %s\n", m.Task, m.Reason)
		}
	}
	if len(s.Unpredicted) > 0 {
		fmt.Fprintf(&b, "in the run but not predicted: %s\n", strings.Join(s.Unpredicted, ", "))
	}
	b.WriteString(legend)
	_, err := io.WriteString(w, b.String())
	return err
}

// legend explains the columns under the table.
var legend = func() string {
	var b strings.Builder
	b.WriteString("answers: one letter per question, y or n:\n")
	for i, q := range Questions {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, q)
	}
	b.WriteString(`  all yes predicts "workflow" (the workflow is enough); anything else "agent" (it needs an agent).
observed: "workflow" if the workflow passed in most of its episodes, else "agent" if the
  agent did, else "neither"; a tie is not most, and interrupted episodes are left out.
`)
	return b.String()
}()
