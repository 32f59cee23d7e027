package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// compareTable lays deltas out benchstat-style: a change only when it is
// significant, else "~", always with the p-value and the sample sizes. A
// measure whose n is too small for any change to be significant is marked
// with the footnote that says so, pass rate and tokens each on its own
// (their tests need different n). With several models a model column says
// whose each row is.
func compareTable(c Comparison) (table, []Footnote) {
	t := table{
		title:  fmt.Sprintf("Changes from old to new (\"~\": not significant at α = %g)", c.Alpha),
		header: []string{"task", "track", "old passed", "new passed", "pass rate Δ", "old median tokens", "new median tokens", "tokens Δ"},
	}
	if c.Models {
		t.header = slices.Insert(t.header, 2, "model")
	}
	var notes []Footnote
	for i, text := range c.Notes {
		notes = append(notes, Footnote{ID: i + 1, Text: text})
	}
	mark := func(used bool, text string) string {
		if !used {
			return ""
		}
		for _, n := range notes {
			if n.Text == text {
				return fmt.Sprintf(" [%d]", n.ID)
			}
		}
		notes = append(notes, Footnote{ID: len(notes) + 1, Text: text})
		return fmt.Sprintf(" [%d]", len(notes))
	}
	for _, d := range c.Deltas {
		sizes := fmt.Sprintf("n=%d+%d", d.OldN, d.NewN)
		rate := "~"
		if d.RateSignificant {
			rate = fmt.Sprintf("%+.1fpp", 100*d.RateChange)
		}
		tokens := "~"
		if d.TokensSignificant {
			tokens = "changed"
			if d.OldTokens > 0 {
				tokens = fmt.Sprintf("%+.1f%%", 100*(d.NewTokens/d.OldTokens-1))
			}
		}
		est := ""
		if d.TokenBasis == "estimated" {
			est = " (est.)"
		}
		rateMark := mark(d.RateTooFew, fmt.Sprintf("pass rate: with these n Fisher's exact test cannot reach p < %g, so no change could show", c.Alpha))
		tokensMark := mark(d.TokensTooFew, fmt.Sprintf("tokens: with these n the U test cannot reach p < %g, so no change could show (need >= %d episodes on each side when both are equal)", c.Alpha, c.Need))
		row := []string{
			d.Task, d.Track,
			fraction(d.OldPassed, d.OldN), fraction(d.NewPassed, d.NewN),
			fmt.Sprintf("%s (p=%.3f %s)%s", rate, d.RateP, sizes, rateMark),
			num(d.OldTokens) + est, num(d.NewTokens) + est,
			fmt.Sprintf("%s (p=%.3f %s)%s", tokens, d.TokensP, sizes, tokensMark),
		}
		if c.Models {
			model := d.Model
			if d.OldModel != d.Model {
				model = d.OldModel + " → " + d.Model
			}
			row = slices.Insert(row, 2, model)
		}
		t.rows = append(t.rows, row)
	}
	return t, notes
}

// noCommonCells is what compare prints when the runs share no task and track.
const noCommonCells = "no task and track appears in both runs: nothing to compare"

// WriteCompareText renders a comparison as a plain-text table and its notes.
func WriteCompareText(w io.Writer, c Comparison) error {
	if len(c.Deltas) == 0 {
		_, err := io.WriteString(w, noCommonCells+"\n")
		return err
	}
	t, notes := compareTable(c)
	return writeTextTables(w, nil, []table{t}, notes)
}

// WriteCompareMarkdown renders a comparison as a Markdown table and notes.
func WriteCompareMarkdown(w io.Writer, c Comparison) error {
	if len(c.Deltas) == 0 {
		_, err := io.WriteString(w, "# bench compare\n\n"+noCommonCells+"\n")
		return err
	}
	t, notes := compareTable(c)
	return writeMarkdownTables(w, "bench compare", nil, []table{t}, notes)
}

// WriteCompareJSON renders a comparison as a JSON document (see Comparison).
func WriteCompareJSON(w io.Writer, c Comparison) error {
	c.Deltas, c.Notes = nonNil(c.Deltas), nonNil(c.Notes)
	return WriteJSONValue(w, c)
}

// compareCSVHeader is the fixed header of WriteCompareCSV.
var compareCSVHeader = []string{"task", "track", "model", "old_model", "old_n", "new_n", "old_passed", "new_passed", "rate_change", "rate_p", "rate_significant", "rate_too_few",
	"token_basis", "old_median_tokens", "new_median_tokens", "tokens_p", "tokens_significant", "tokens_too_few", "too_few", "alpha"}

// WriteCompareCSV renders the deltas as one CSV table with a fixed header,
// each row's model named (the notes are left out: the text formats and
// JSON carry them).
func WriteCompareCSV(w io.Writer, c Comparison) error {
	cw := csv.NewWriter(w)
	writeCSVRecord(cw, slices.Clone(compareCSVHeader))
	b := strconv.FormatBool
	for _, d := range c.Deltas {
		writeCSVRecord(cw, []string{d.Task, d.Track, d.Model, d.OldModel, itoa(d.OldN), itoa(d.NewN), itoa(d.OldPassed), itoa(d.NewPassed),
			f4(d.RateChange), f4(d.RateP), b(d.RateSignificant), b(d.RateTooFew), d.TokenBasis, num(d.OldTokens), num(d.NewTokens),
			f4(d.TokensP), b(d.TokensSignificant), b(d.TokensTooFew), b(d.TooFew), num(c.Alpha)})
	}
	cw.Flush()
	return cw.Error()
}

// itoa is strconv.Itoa, for brevity in renderers.
var itoa = strconv.Itoa
