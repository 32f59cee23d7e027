package report

import (
	"fmt"
	"strconv"

	"bench/internal/words"
	"bench/report/paired"
)

// trackPooled are the pooled answers that compare two tracks.
func trackPooled(pooled []TrackPooled) []TrackPooled {
	var out []TrackPooled
	for _, p := range pooled {
		if p.Dimension == DimensionTrack {
			out = append(out, p)
		}
	}
	return out
}

// variantPooled are the pooled answers that compare two values of a
// dimension.
func variantPooled(pooled []TrackPooled) []TrackPooled {
	var out []TrackPooled
	for _, p := range pooled {
		if p.Dimension != DimensionTrack {
			out = append(out, p)
		}
	}
	return out
}

// variantTables lays out the comparisons of variants: one table pooled
// over tasks (a row per dimension, value and track) and one per task;
// none when the runs have no dimension.
func variantTables(rep *Report) []table {
	var ts []table
	several := rep.severalModels()
	if pooled := variantPooled(rep.Pooled); len(pooled) > 0 {
		t := table{title: "Settings compared, pooled over tasks (new − old: the value against the dimension's first; paired by task, track, model, seed and repeat; stratified by task)",
			header: append([]string{"setting", "new", "old", "track"}, pooledHeader...)}
		for _, p := range pooled {
			label := fullLabel(p.Track, p.Model, p.Variant, several)
			t.rows = append(t.rows, append([]string{p.Dimension, p.New, p.Old, label + " " + noteMarks(p.Notes)}, pooledCells(p.PooledResult)...))
		}
		ts = append(ts, t)
	}
	if len(rep.VariantTasks) > 0 {
		t := table{title: "Settings compared per task (exact McNemar on the pairs; a change only when p < 0.05, else ~)",
			header: []string{"setting", "new", "old", "task", "track", "old passed", "new passed", "pass rate Δ [95% CI]", "pairs", "only old passed", "only new passed", "pass-rate test", "tokens new/old [95% CI]", "seeds per task for 80% power", "notes"}}
		for _, v := range rep.VariantTasks {
			pt := v.Pass.Table
			pairs := strconv.Itoa(pt.Pairs)
			if !v.Paired {
				pairs = fmt.Sprintf("none (n=%d+%d)", pt.OldN, pt.NewN)
			}
			t.rows = append(t.rows, []string{v.Dimension, v.New, v.Old, v.Task, fullLabel(v.Track, v.Model, v.Variant, several),
				Fraction(pt.OldPass, pt.OldN), Fraction(pt.NewPass, pt.NewN), differenceText(v.Pass.Difference),
				pairs, strconv.Itoa(pt.OnlyOld), strconv.Itoa(pt.OnlyNew), testText(v.Pass.Test), ratioText(v.Tokens.Ratio),
				seedsText(v.Pass.Seeds, v.Pass.Test.Significant), noteMarks(v.Notes)})
		}
		ts = append(ts, t)
	}
	return ts
}

// answerLines state each pooled comparison of settings in one sentence:
// does the setting change success, and what does it cost, with the
// intervals and, within noise, the seeds that would tell.
func answerLines(rep *Report) []string {
	var lines []string
	several := rep.severalModels()
	for _, p := range variantPooled(rep.Pooled) {
		label := fullLabel(p.Track, p.Model, p.Variant, several)
		line := fmt.Sprintf("%s %s against %s, %s over %s: pass rate %s, %s", p.Dimension, p.New, p.Old, label, words.Plural(p.Tasks, "task"),
			differenceText(p.Pass.Difference), verdictText(p.Pass.Test))
		if s := p.Pass.Seeds; s != nil && !p.Pass.Test.Significant {
			if s.Seeds > 0 {
				line += fmt.Sprintf("; %d seeds per task (now %d) would detect a change of %.3g with power %.2g", s.Seeds, s.SeedsNow, s.Effect, s.Power)
			} else {
				line += fmt.Sprintf("; more than %d seeds per task would be needed to detect a change of %.3g", paired.MaxSeeds, s.Effect)
			}
		}
		line += fmt.Sprintf("; tokens %s", ratioText(p.Tokens.Ratio))
		lines = append(lines, line+" "+noteMarks(p.Notes))
	}
	return lines
}

// verdictText says whether a test found a change: "changed (stratified
// exact p = 0.004)", "within noise (stratified exact p = 0.39)", or, when
// no outcome of these episodes could have been significant, so.
func verdictText(t paired.Test) string {
	switch {
	case t.Significant:
		return fmt.Sprintf("changed (stratified exact p = %.3g)", t.P)
	case !(t.MinP < paired.DefaultAlpha):
		return fmt.Sprintf("too few pairs to tell: no outcome could reach p < %g (stratified exact p = %.3g, smallest possible %.3g)", paired.DefaultAlpha, t.P, t.MinP)
	}
	return fmt.Sprintf("within noise (stratified exact p = %.3g)", t.P)
}

// Table is a titled table of strings, as a renderer other than text and
// Markdown (the page) shows it.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
}

// ComparisonTables are the report's comparisons as the text report lays
// them out: the agent against each workflow track pooled over tasks, and
// the comparisons of settings pooled and per task; none without any.
func ComparisonTables(rep *Report) []Table {
	var out []Table
	for _, t := range append(pooledTables(trackPooled(rep.Pooled)), variantTables(rep)...) {
		out = append(out, Table{Title: t.title, Header: t.header, Rows: t.rows})
	}
	return out
}

// AnswerLines are the one-line answers of the comparisons of settings, as
// the text report prints them under its runs.
func AnswerLines(rep *Report) []string { return answerLines(rep) }
