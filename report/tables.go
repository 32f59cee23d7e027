package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// table is a titled table, rendered by the text and markdown renderers.
type table struct {
	title  string
	header []string
	rows   [][]string
}

// tables lays the report out as the tables of the text and markdown
// formats; empty tables are left out.
func tables(rep *Report) []table {
	var ts []table
	for _, t := range []table{tracksTable(rep), resultsTable(rep), causesTable(rep), delegationTable(rep), pairsTable(rep), sequencesTable(rep), twinsTable(rep)} {
		if len(t.rows) > 0 {
			ts = append(ts, t)
		}
	}
	return append(ts, designTables(rep)...)
}

// tracksTable has one row per track, over all tasks.
func tracksTable(rep *Report) table {
	t := table{
		title: "Per track, over all tasks (each model on its own; a task is solved when more than half of its counted episodes passed, " +
			"and counts only when it has one)",
		header: []string{"track", "tasks solved", "episodes passed", "rate [95% CI]", "lost", "unfinished", "tokens (total)", "est. tokens (total)", "retries", "cut replies"},
	}
	several := rep.severalModels()
	for _, r := range rep.Tracks {
		solved := Fraction(r.TasksSolved, r.Tasks)
		if r.NotCounted > 0 {
			solved += fmt.Sprintf(" (%d not counted)", r.NotCounted)
		}
		t.rows = append(t.rows, []string{
			fullLabel(r.Track, r.Model, r.Variant, several),
			solved,
			Fraction(r.Passed, r.N),
			RateText(r.Rate, r.Wilson),
			strconv.Itoa(r.Lost), strconv.Itoa(r.Interrupted + r.NotRun),
			strconv.Itoa(r.Tokens), strconv.Itoa(r.EstTokens),
			strconv.Itoa(r.Retries), strconv.Itoa(r.CutReplies),
		})
	}
	return t
}

// resultsTable has one row per task and track.
func resultsTable(rep *Report) table {
	t := table{
		title:  "Results per task and track",
		header: []string{"task", "track", "passed", "lost", "unfinished", "rate [95% CI]", "pass@k", "median tokens", "median est. tokens", "median turns", "exit reasons", "notes"},
	}
	several := rep.severalModels()
	for _, r := range rep.Rows {
		t.rows = append(t.rows, []string{
			r.Task, fullLabel(r.Track, r.Model, r.Variant, several),
			Fraction(r.Passed, r.N),
			strconv.Itoa(r.Lost), strconv.Itoa(r.Interrupted + r.NotRun),
			RateText(r.Rate, r.Wilson),
			passAtKText(r.PassAtK),
			MedianText(r.MedianTokens), MedianText(r.MedianEstTokens), MedianText(r.MedianTurns),
			countsText(r.Exits),
			noteMarks(r.Notes),
		})
	}
	return t
}

// pairsTable has one row per task and compared tracks: the token ratio and
// the McNemar test.
func pairsTable(rep *Report) table {
	t := table{
		title:  "Agent against the workflow tracks, per task (token ratio of medians; exact McNemar test on episodes paired by run, seed and repeat)",
		header: []string{"task", "tracks", "median tokens", "ratio", "95% CI", "pairs", "only first passed", "only second passed", "McNemar p", "notes"},
	}
	several := rep.severalModels()
	for _, m := range rep.McNemar {
		row := []string{m.Task, fullLabel(m.A+"/"+m.B, m.Model, m.Variant, several), "–", "–", "–", strconv.Itoa(m.Pairs), strconv.Itoa(m.OnlyA), strconv.Itoa(m.OnlyB), fmt.Sprintf("%.3f", m.P), noteMarks(m.Notes)}
		if m.Pairs == 0 {
			row[5], row[6], row[7], row[8] = "no pair", "", "", ""
		}
		if r := rep.ratioOf(m); r != nil {
			row[2] = NumberText(r.NumMedian) + "/" + NumberText(r.DenMedian)
			if r.Basis == BasisEstimated {
				row[2] += " (est.)"
			}
			row[3] = fmt.Sprintf("%.2f", r.Ratio)
			if r.Interval != nil {
				row[4] = fmt.Sprintf("[%.2f, %.2f]", r.Interval.Low, r.Interval.High)
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// SequencesShown is how many distinct tool sequences of one task, track
// and model the text, Markdown and the page list, the most frequent
// first; a last row counts the others (the JSON document lists each).
const SequencesShown = 10

// sequencesTable lists the distinct tool-call sequences of the counted
// episodes, SequencesShown per task, track and model.
func sequencesTable(rep *Report) table {
	t := table{title: "Tool sequences (counted episodes)", header: []string{"task", "track", "episodes", "tool calls"}}
	several := rep.severalModels()
	for _, g := range GroupSequences(rep, SequencesShown) {
		label := fullLabel(g.Track, g.Model, g.Variant, several)
		for _, s := range g.Shown {
			t.rows = append(t.rows, []string{s.Task, label, strconv.Itoa(s.Count), CollapseLoops(s.Tools)})
		}
		if g.More > 0 {
			t.rows = append(t.rows, []string{g.Task, label, strconv.Itoa(g.MoreEpisodes), fmt.Sprintf("… %d more distinct sequences", g.More)})
		}
	}
	return t
}

// SequenceGroup is the tool sequences of one task, track and model: the
// first few, and how many more there are with how many episodes.
type SequenceGroup struct {
	Task, Track, Model string
	Variant            string
	Shown              []Sequence
	More, MoreEpisodes int
}

// GroupSequences groups the report's sequences (in its order: by task,
// model and track, the most frequent first) per task, track and model,
// keeping the first shown of each and counting the others, those the
// report does not list included (MoreSeqs).
func GroupSequences(rep *Report, shown int) []SequenceGroup {
	var out []SequenceGroup
	for _, s := range rep.Sequences {
		if n := len(out); n == 0 || out[n-1].Task != s.Task || out[n-1].Track != s.Track || out[n-1].Model != s.Model || out[n-1].Variant != s.Variant {
			out = append(out, SequenceGroup{Task: s.Task, Track: s.Track, Model: s.Model, Variant: s.Variant})
		}
		g := &out[len(out)-1]
		if len(g.Shown) < shown {
			g.Shown = append(g.Shown, s)
		} else {
			g.More, g.MoreEpisodes = g.More+1, g.MoreEpisodes+s.Count
		}
	}
	for _, m := range rep.MoreSeqs {
		for i := range out {
			if g := &out[i]; g.Task == m.Task && g.Track == m.Track && g.Model == m.Model && g.Variant == m.Variant {
				g.More, g.MoreEpisodes = g.More+m.Sequences, g.MoreEpisodes+m.Episodes
			}
		}
	}
	return out
}

// ratioOf is the token ratio of the tracks of McNemar test m, or nil.
func (rep *Report) ratioOf(m McNemar) *Ratio {
	for i, r := range rep.Ratios {
		if r.Task == m.Task && r.Model == m.Model && r.Variant == m.Variant && r.Num == m.A && r.Den == m.B {
			return &rep.Ratios[i]
		}
	}
	return nil
}

// twinDetailMax is the number of twin comparisons above which the text and
// Markdown formats summarize twins per task and track instead of listing
// each (the JSON document always lists each).
const twinDetailMax = 50

// twinsTable compares each twin with the first episode of its group, or
// summarizes per task and track when there are many.
func twinsTable(rep *Report) table {
	compared := 0
	for _, g := range rep.Twins {
		compared += len(g.Members) - 1
	}
	if compared > twinDetailMax {
		return twinsSummary(rep)
	}
	t := table{title: "Twin runs (same task, track, seed and configuration)", header: []string{"task", "track", "seed", "episode", "against", "result", "notes"}}
	for _, g := range rep.Twins {
		multiRun := false
		for _, m := range g.Members {
			multiRun = multiRun || m.Run != g.Members[0].Run
		}
		label := func(m TwinMember) string {
			if multiRun {
				return m.Run + ":" + m.Name
			}
			return m.Name
		}
		for _, m := range g.Members[1:] {
			result := "identical"
			if !m.Identical {
				result = fmt.Sprintf("diverge at step %d", m.DivergeAt)
				if m.Hint != "" {
					result += " (" + m.Hint + ")"
				}
			}
			t.rows = append(t.rows, []string{g.Task, fullLabel(g.Track, g.Model, g.Variant, rep.severalModels()), strconv.Itoa(g.Seed), label(m), label(g.Members[0]), result, noteMarks(g.Notes)})
		}
	}
	return t
}

// twinsSummary counts, per task and track, the twins that repeated their
// first episode and those that diverged, by the step of divergence.
func twinsSummary(rep *Report) table {
	t := table{
		title:  "Twin runs (same task, track, seed and configuration), summarized: the JSON format lists each",
		header: []string{"task", "track", "twins", "identical", "diverged", "diverged at step (count)", "notes"},
	}
	type sum struct {
		twins, identical int
		at               map[int]int
		notes            []int
	}
	var keys [][2]string
	sums := map[[2]string]*sum{}
	for _, g := range rep.Twins {
		k := [2]string{g.Task, fullLabel(g.Track, g.Model, g.Variant, rep.severalModels())}
		s := sums[k]
		if s == nil {
			s = &sum{at: map[int]int{}}
			sums[k] = s
			keys = append(keys, k) // rep.Twins is in task and track order
		}
		for _, id := range g.Notes {
			s.notes = addTo(s.notes, id)
		}
		for _, m := range g.Members[1:] {
			s.twins++
			if m.Identical {
				s.identical++
			} else {
				s.at[m.DivergeAt]++
			}
		}
	}
	for _, k := range keys {
		s := sums[k]
		steps := make([]int, 0, len(s.at))
		for step := range s.at {
			steps = append(steps, step)
		}
		slices.Sort(steps)
		var parts []string
		for _, step := range steps {
			parts = append(parts, fmt.Sprintf("%d (%d)", step, s.at[step]))
		}
		t.rows = append(t.rows, []string{k[0], k[1], strconv.Itoa(s.twins), strconv.Itoa(s.identical),
			strconv.Itoa(s.twins - s.identical), strings.Join(parts, ", "), noteMarks(s.notes)})
	}
	return t
}

// Undefined is how every table shows a figure that n = 0 leaves
// undefined: a rate, an interval, a median, a count of passes.
const Undefined = "–"

// RateText formats a rate and its interval, or Undefined when there is
// none (n is 0).
func RateText(rate *float64, iv *Interval) string {
	if rate == nil || iv == nil {
		return Undefined
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", *rate, iv.Low, iv.High)
}

// MedianText formats a median, or Undefined when there is none.
func MedianText(x *float64) string {
	if x == nil {
		return Undefined
	}
	return NumberText(*x)
}

// Fraction formats passes out of n as "3/4", or Undefined when n is 0:
// nothing was counted, which is not "0 of 0 passed".
func Fraction(passed, n int) string {
	if n == 0 {
		return Undefined
	}
	return strconv.Itoa(passed) + "/" + strconv.Itoa(n)
}

// passAtKText formats pass@k estimates as "1:0.75 2:1.00".
func passAtKText(ps []PassK) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%d:%.2f", p.K, p.P)
	}
	return strings.Join(parts, " ")
}

// countsText formats counts as "done 3, max_turns 1".
func countsText(cs []Count) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s %d", c.Name, c.Count)
	}
	return strings.Join(parts, ", ")
}

// noteMarks formats footnote references as "[1][2]".
func noteMarks(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "[%d]", id)
	}
	return b.String()
}

// NumberText formats a median: a data value, or the midpoint of two for even n.
func NumberText(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// severalModels reports whether the report's rows hold more than one model:
// the tables then name each row's model after its track.
func (rep *Report) severalModels() bool {
	for _, r := range rep.Rows {
		if r.Model != rep.Rows[0].Model {
			return true
		}
	}
	return false
}

// VariantLabel is a label followed by its variant in square brackets,
// when the runs have dimensions ("agent [posture=on]").
func VariantLabel(label, variant string) string {
	if variant == "" {
		return label
	}
	return label + " [" + variant + "]"
}

// SeriesLabel names the series row r belongs to in a chart of the
// report: its track, with its model when the report holds several, and its
// variant.
func (rep *Report) SeriesLabel(r Row) string {
	return fullLabel(r.Track, r.Model, r.Variant, rep.severalModels())
}

// fullLabel is a track as the tables show it: with its model in brackets
// when the report holds several models, and its variant (VariantLabel).
func fullLabel(track, model, variant string, several bool) string {
	if several {
		track += " (" + cmp.Or(model, "no model") + ")"
	}
	return VariantLabel(track, variant)
}
