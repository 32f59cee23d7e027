package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"bench/internal/words"
)

// compareTable lays deltas out benchstat-style: a change only when it is
// significant, else "~", always with the p-value, the episodes tested
// (pairs, or n=old+new for an unpaired row) and the tests the row used. A
// measure that no outcome of these episodes could make significant is
// marked with the footnote that says so; a row within noise says how many
// seeds per task would detect its change. With several models a model
// column says whose each row is.
func compareTable(c Comparison, notes *footnotes) table {
	t := table{
		title: fmt.Sprintf("Changes per task from old to new (\"~\": not significant at α = %g)", c.Alpha),
		header: []string{"task", "track", "old passed", "new passed", "pass rate Δ", "old median tokens", "new median tokens", "tokens Δ", "tests",
			"seeds per task for 80% power"},
	}
	if c.Models {
		t.header = slices.Insert(t.header, 2, "model")
	}
	mark := func(used bool, text string) string {
		if !used {
			return ""
		}
		return fmt.Sprintf(" [%d]", notes.add(text))
	}
	for _, d := range c.Deltas {
		sizes := fmt.Sprintf("n=%d+%d", d.OldN, d.NewN)
		tests := "unpaired: Fisher, Mann-Whitney"
		if d.Paired {
			sizes = words.Plural(d.Pairs, "pair")
			tests = "paired: McNemar, Wilcoxon"
		}
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
		if d.TokenBasis == BasisEstimated {
			est = " (est.)"
		}
		rateMark := mark(d.RateTooFew && d.Paired, fmt.Sprintf("pass rate: fewer than %d discordant pairs (one side passed, the other failed): the exact McNemar test cannot reach p < %g, so no change could show", c.NeedPairs, c.Alpha)) +
			mark(d.RateTooFew && !d.Paired, fmt.Sprintf("pass rate: with these n Fisher's exact test cannot reach p < %g, so no change could show", c.Alpha))
		tokensMark := mark(d.TokensTooFew && d.Paired, fmt.Sprintf("tokens: fewer than %d pairs whose tokens differ: the signed-rank test cannot reach p < %g, so no change could show", c.NeedPairs, c.Alpha)) +
			mark(d.TokensTooFew && !d.Paired, fmt.Sprintf("tokens: with these n the U test cannot reach p < %g, so no change could show (need >= %d episodes on each side when both are equal)", c.Alpha, c.Need))
		tests += mark(d.LeftOutOld+d.LeftOutNew > 0, "episodes without a pair (the other side has none of the same task, track, seed and repeat) are in no test of their row: its tests, changes and medians are of its pairs") +
			mark(!d.Paired, "no episode of the row pairs (the runs share none of its seeds and repeats): the unpaired tests, which are weaker")
		row := []string{
			d.Task, VariantLabel(d.Track, d.Variant),
			Fraction(d.OldPassed, d.OldN), Fraction(d.NewPassed, d.NewN),
			fmt.Sprintf("%s (p=%.3f %s)%s", rate, d.RateP, sizes, rateMark),
			NumberText(d.OldTokens) + est, NumberText(d.NewTokens) + est,
			fmt.Sprintf("%s (p=%.3f %s)%s", tokens, d.TokensP, sizes, tokensMark),
			tests, seedsText(d.Seeds, d.RateSignificant),
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
	return t
}

// comparePooledTable lays the pooled answers out, one row per track (and
// model), their caveats as footnotes.
func comparePooledTable(c Comparison, notes *footnotes) table {
	t := table{title: "Pooled over tasks, per track (new − old; stratified by task)", header: append([]string{"track"}, pooledHeader...)}
	several := false
	for _, p := range c.Pooled {
		several = several || p.Model != c.Pooled[0].Model
	}
	if several {
		t.header = slices.Insert(t.header, 1, "model")
	}
	for _, p := range c.Pooled {
		row := append([]string{strings.TrimSpace(p.Track + " " + noteMarks(pooledNotes(p, pooledPrefix(p), notes)))}, pooledCells(p)...)
		if several {
			row = slices.Insert(row, 1, p.Model)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// compareLayout is what the text and Markdown formats print: the intro
// lines (the gate's verdict first, then the header), the pooled and the
// per-task tables, and the footnotes.
func compareLayout(c Comparison) ([]string, []table, []Footnote) {
	notes := &footnotes{}
	for _, text := range c.Notes {
		notes.add(text)
	}
	intro := append(gateLines(c.Gate), c.Header...)
	pooled := comparePooledTable(c, notes)
	return intro, []table{pooled, compareTable(c, notes)}, notes.list
}

// noCommonCells is what compare prints when the runs share no task and track.
const noCommonCells = "no task and track appears in both runs: nothing to compare"

// WriteCompareText renders a comparison as plain text: the gate's verdict
// (with --fail-on), what is compared, the pooled and the per-task tables
// and their notes.
func WriteCompareText(w io.Writer, c Comparison) error {
	if len(c.Deltas) == 0 {
		_, err := io.WriteString(w, noCommonCells+"\n")
		return err
	}
	intro, ts, notes := compareLayout(c)
	return writeTextTables(w, intro, ts, notes)
}

// WriteCompareMarkdown renders a comparison as Markdown fit for a
// pull-request comment: the gate's verdict first, then what is compared,
// the pooled answer per track and the changes per task.
func WriteCompareMarkdown(w io.Writer, c Comparison) error {
	if len(c.Deltas) == 0 {
		_, err := io.WriteString(w, "# bench compare\n\n"+noCommonCells+"\n")
		return err
	}
	intro, ts, notes := compareLayout(c)
	return writeMarkdownTables(w, "bench compare", intro, ts, notes)
}

// WriteCompareJSON renders a comparison as a JSON document (see Comparison).
func WriteCompareJSON(w io.Writer, c Comparison) error {
	c.Deltas, c.Notes, c.Pooled, c.Header = nonNil(c.Deltas), nonNil(c.Notes), nonNil(c.Pooled), nonNil(c.Header)
	for i := range c.Deltas {
		c.Deltas[i].Caveats = nonNil(c.Deltas[i].Caveats)
	}
	return WriteJSONValue(w, c)
}

// compareCSVHeader is the fixed header of WriteCompareCSV.
var compareCSVHeader = []string{"task", "track", "model", "old_model", "old_n", "new_n", "old_passed", "new_passed", "rate_change", "rate_p", "rate_significant", "rate_too_few",
	"token_basis", "old_median_tokens", "new_median_tokens", "tokens_p", "tokens_significant", "tokens_too_few", "too_few", "alpha",
	"paired", "pairs", "rate_test", "tokens_test"}

// WriteCompareCSV renders the deltas as one CSV table with a fixed header,
// each row's model and tests named (the pooled answers and the notes are
// left out: the text formats and JSON carry them).
func WriteCompareCSV(w io.Writer, c Comparison) error {
	cw := csv.NewWriter(w)
	writeCSVRecord(cw, slices.Clone(compareCSVHeader))
	b := strconv.FormatBool
	for _, d := range c.Deltas {
		writeCSVRecord(cw, []string{d.Task, d.Track, d.Model, d.OldModel, itoa(d.OldN), itoa(d.NewN), itoa(d.OldPassed), itoa(d.NewPassed),
			f4(d.RateChange), f4(d.RateP), b(d.RateSignificant), b(d.RateTooFew), d.TokenBasis, NumberText(d.OldTokens), NumberText(d.NewTokens),
			f4(d.TokensP), b(d.TokensSignificant), b(d.TokensTooFew), b(d.TooFew), NumberText(c.Alpha),
			b(d.Paired), itoa(d.Pairs), d.RateTest, d.TokensTest})
	}
	cw.Flush()
	return cw.Error()
}

// itoa is strconv.Itoa, for brevity in renderers.
var itoa = strconv.Itoa
