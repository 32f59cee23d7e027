package output

import (
	"fmt"
	"io"

	"bench/internal/inert"
	"bench/internal/table"
	"bench/report/predict"
)

// Check is bench check: it scores the predictions file against the run
// folders dirs and writes the score to w in format (one of table.Formats)
// and, in text and Markdown, why each missed prediction missed; what the
// folders' reading skipped goes to warn.
func Check(w, warn io.Writer, predictions string, dirs []string, format string) error {
	file, err := predict.Load(predictions)
	if err != nil {
		return err
	}
	agg, err := Read(dirs)
	if err != nil {
		return err
	}
	for _, s := range agg.Warnings() {
		fmt.Fprintln(warn, "warning:", inert.Line(s)) // a warning can quote a skipped line's bytes
	}
	rep := agg.Report()
	score, err := predict.Check(file, rep.Observed())
	if err != nil {
		return err
	}
	if err := predict.Write(w, score, format); err != nil {
		return err
	}
	return writeMisses(w, rep.ExplainMisses(score), format)
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
