package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"bench/internal/inert"
	"bench/record"
)

// csvExits are the exit reasons that always have their column in the CSV,
// in order; any other reason is counted under exit_other.
var csvExits = exitNames(record.ExitReasons)

// csvHeader is the CSV's fixed header: the same whatever happened, so that
// the CSVs of several runs concatenate (tail -n +2) into one table.
func csvHeader() []string {
	h := []string{"run", "model", "task", "track", "n", "lost", "passed", "rate", "wilson95_low", "wilson95_high"}
	for _, k := range PassAtKs {
		h = append(h, "pass@"+strconv.Itoa(k))
	}
	h = append(h, "median_tokens", "median_est_tokens", "median_turns")
	for _, e := range csvExits {
		h = append(h, "exit_"+e)
	}
	h = append(h, "exit_other", "retries", "cut_replies", "grading_timeouts", "interrupted", "not_run", "inconsistent", "notes")
	for _, c := range record.CauseVocabulary {
		h = append(h, "cause_"+string(c.Name))
	}
	h = append(h, "cause_other", "causes_absent", "causes_unexplained", "workflow_calls", "workflow_tokens")
	return append(h, csvComparisonHeader...)
}

// WriteCSV renders the rows of the report as one flat CSV table with a
// fixed header (csvHeader): the run ids the row pools and its model (for a row without one, the runs' models; "+"
// between several), a column per statistic, pass@k for each k of PassAtKs
// (empty when n < k), a column per contract exit reason and one for the
// others, the text of the row's footnotes, a column per cause of the
// vocabulary (failed episodes carrying it) and one for the others, the
// failed episodes whose line records no causes and those with none
// found, and the hybrid's workflow calls and tokens, then the row's
// variant. Rate and medians are empty when n is 0 (every episode lost).
// After the rows come the comparisons (csvComparisons): the pooled
// answers and the per-task comparisons of settings, in the same columns.
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	header := csvHeader()
	if err := writeCSVRecord(cw, slices.Clone(header)); err != nil {
		return err
	}
	texts := map[int]string{}
	for _, f := range rep.Footnotes {
		texts[f.ID] = f.Text
	}
	models := map[string]string{}
	for _, r := range rep.Runs {
		models[r.Label] = r.Model
	}
	for _, r := range rep.Rows {
		if err := writeCSVRecord(cw, csvRecord(r, models, texts)); err != nil {
			return err
		}
	}
	for _, rec := range csvComparisons(rep, header, texts) {
		if err := writeCSVRecord(cw, rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvRecord is the CSV record of one row, in csvHeader's order; models
// maps run labels to models and texts footnote IDs to their texts.
func csvRecord(r Row, models map[string]string, texts map[int]string) []string {
	ms := []string{r.Model}
	if r.Model == "" {
		ms = nil
		for _, id := range r.Runs {
			if m := models[id]; !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
	}
	rec := []string{strings.Join(r.Runs, "+"), strings.Join(ms, "+"), r.Task, r.Track, itoa(r.N), itoa(r.Lost), itoa(r.Passed)}
	if r.Rate == nil || r.Wilson == nil {
		rec = append(rec, "", "", "")
	} else {
		rec = append(rec, f4(*r.Rate), f4(r.Wilson.Low), f4(r.Wilson.High))
	}
	for _, k := range PassAtKs {
		v := ""
		for _, p := range r.PassAtK {
			if p.K == k {
				v = f4(p.P)
			}
		}
		rec = append(rec, v)
	}
	for _, m := range []*float64{r.MedianTokens, r.MedianEstTokens, r.MedianTurns} {
		if m == nil {
			rec = append(rec, "")
		} else {
			rec = append(rec, NumberText(*m))
		}
	}
	exits := map[string]int{}
	other := 0
	for _, c := range r.Exits {
		if slices.Contains(csvExits, c.Name) {
			exits[c.Name] = c.Count
		} else {
			other += c.Count
		}
	}
	for _, e := range csvExits {
		rec = append(rec, itoa(exits[e]))
	}
	rec = append(rec, itoa(other), itoa(r.Retries), itoa(r.CutReplies), itoa(r.GradingTimeouts), itoa(r.Interrupted), itoa(r.NotRun), itoa(r.Inconsistent))
	rec = append(rec, noteTexts(r.Notes, texts))
	for _, c := range record.CauseVocabulary {
		rec = append(rec, itoa(r.CauseCount(c.Name)))
	}
	rec = append(rec, itoa(r.CauseCount(OtherCause)), itoa(r.CausesAbsent), itoa(r.Unexplained), itoa(r.WorkflowCalls), itoa(r.WorkflowTokens))
	return append(rec, csvRowTail(r)...)
}

// writeCSVRecord writes one record with every field made inert (one line,
// control characters escaped): a CSV printed on a terminal repaints nothing.
func writeCSVRecord(cw *csv.Writer, rec []string) error {
	for i, f := range rec {
		rec[i] = inert.Line(f)
	}
	return cw.Write(rec)
}

// f4 formats a probability with four decimals.
func f4(x float64) string {
	return strconv.FormatFloat(x, 'f', 4, 64)
}
