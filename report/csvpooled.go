package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bench/report/paired"
)

// csvComparisonHeader are the CSV's columns after a row's: its variant,
// and, for the rows of a comparison (level task or pooled), what is
// compared and its answer. A row of a task and track (level row) leaves
// the comparison's columns empty; a comparison's row leaves the row's
// statistics empty.
var csvComparisonHeader = []string{"variant", "level", "compared", "old", "new", "old_passed", "old_n", "new_passed", "new_n",
	"pass_change", "pass_change_low", "pass_change_high", "pass_test", "pass_p",
	"tokens_ratio", "tokens_ratio_low", "tokens_ratio_high", "tokens_test", "tokens_p",
	"seeds_per_task", "seeds_now", "seeds_effect"}

// CSV levels: what a record of the CSV is.
const (
	csvLevelRow    = "row"    // a task, track and model (and variant)
	csvLevelTask   = "task"   // a comparison of settings on one task
	csvLevelPooled = "pooled" // a comparison pooled over tasks
)

// csvRowTail is the tail of a task and track row: its variant and the
// empty comparison columns.
func csvRowTail(r Row) []string {
	tail := make([]string, len(csvComparisonHeader))
	tail[0], tail[1] = r.Variant, csvLevelRow
	return tail
}

// csvComparisons are the CSV records of the report's comparisons: every
// pooled answer (the agent against each workflow track, and each value of
// a dimension against its first) and every per-task comparison of
// settings, each as wide as header with the row's columns it fills: run
// (the runs' labels), model, task, track and notes.
func csvComparisons(rep *Report, header []string, texts map[int]string) [][]string {
	width, notesAt := len(header), slices.Index(header, "notes")
	var runs []string
	for _, r := range rep.Runs {
		if !slices.Contains(runs, r.Label) { // a run given twice, or the shards of one sweep, once
			runs = append(runs, r.Label)
		}
	}
	var out [][]string
	add := func(model, task, track string, notes []int, tail []string) {
		rec := make([]string, width-len(csvComparisonHeader), width)
		rec[0], rec[1], rec[2], rec[3] = strings.Join(runs, "+"), model, task, track
		rec[notesAt] = noteTexts(notes, texts)
		out = append(out, append(rec, tail...))
	}
	for _, p := range rep.Pooled {
		track := p.Track
		if p.Dimension == DimensionTrack {
			track = ""
		}
		add(p.Model, "", track, p.Notes, csvAnswer(p.Variant, csvLevelPooled, p.Dimension, p.Old, p.New, p.Pass, p.Tokens))
	}
	for _, v := range rep.VariantTasks {
		add(v.Model, v.Task, v.Track, v.Notes, csvAnswer(v.Variant, csvLevelTask, v.Dimension, v.Old, v.New, v.Pass, v.Tokens))
	}
	return out
}

// csvAnswer is the tail of a comparison's record, in csvComparisonHeader's
// order: an undefined figure (no interval, no ratio, seeds not asked or
// not estimable) is empty.
func csvAnswer(variant, level, compared, old, new string, pass paired.PassResult, tokens paired.Measure) []string {
	t := pass.Table
	rec := []string{variant, level, compared, old, new, itoa(t.OldPass), itoa(t.OldN), itoa(t.NewPass), itoa(t.NewN)}
	rec = append(rec, effectFields(pass.Difference)...)
	rec = append(rec, testFields(pass.Test)...)
	rec = append(rec, effectFields(tokens.Ratio)...)
	rec = append(rec, testFields(tokens.Test)...)
	if s := pass.Seeds; s != nil && !pass.Test.Significant && s.Seeds > 0 {
		return append(rec, itoa(s.Seeds), itoa(s.SeedsNow), strconv.FormatFloat(s.Effect, 'g', 6, 64))
	}
	return append(rec, "", "", "")
}

// effectFields are an estimate and its interval, empty where undefined.
func effectFields(e *paired.Effect) []string {
	if e == nil {
		return []string{"", "", ""}
	}
	out := []string{g6(e.Estimate), "", ""}
	if e.Interval != nil {
		out[1], out[2] = g6(e.Interval.Low), g6(e.Interval.High)
	}
	return out
}

// testFields are a test's name and p, empty when there was none.
func testFields(t paired.Test) []string {
	if t.Name == paired.TestNone {
		return []string{"", ""}
	}
	return []string{t.Name, g6(t.P)}
}

// g6 formats a statistic with six significant digits.
func g6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// noteTexts joins the texts of footnotes as a CSV cell holds them.
func noteTexts(ids []int, texts map[int]string) string {
	var notes []string
	for _, id := range ids {
		notes = append(notes, fmt.Sprintf("[%d] %s", id, texts[id]))
	}
	return strings.Join(notes, "; ")
}
