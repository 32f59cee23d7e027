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
	for _, t := range []table{tracksTable(rep), resultsTable(rep), pairsTable(rep), sequencesTable(rep), twinsTable(rep)} {
		if len(t.rows) > 0 {
			ts = append(ts, t)
		}
	}
	return append(ts, designTables(rep)...)
}

// tracksTable has one row per track, over all tasks.
func tracksTable(rep *Report) table {
	t := table{
		title:  "Per track, over all tasks (a task is solved when more than half of its episodes passed)",
		header: []string{"track", "tasks solved", "episodes passed", "rate [95% CI]", "lost", "tokens (total)", "est. tokens (total)", "retries", "cut replies"},
	}
	several := rep.severalModels()
	for _, r := range rep.Tracks {
		t.rows = append(t.rows, []string{
			trackLabel(r.Track, r.Model, several),
			fmt.Sprintf("%d/%d", r.TasksSolved, r.Tasks),
			fmt.Sprintf("%d/%d", r.Passed, r.N),
			rateText(r.N, r.Rate, r.Wilson),
			strconv.Itoa(r.Lost),
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
		header: []string{"task", "track", "passed", "lost", "rate [95% CI]", "pass@k", "median tokens", "median est. tokens", "median turns", "exit reasons", "notes"},
	}
	several := rep.severalModels()
	for _, r := range rep.Rows {
		t.rows = append(t.rows, []string{
			r.Task, trackLabel(r.Track, r.Model, several),
			fmt.Sprintf("%d/%d", r.Passed, r.N),
			strconv.Itoa(r.Lost),
			rateText(r.N, r.Rate, r.Wilson),
			passAtKText(r.PassAtK),
			medianText(r.N, r.MedianTokens), medianText(r.N, r.MedianEstTokens), medianText(r.N, r.MedianTurns),
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
		header: []string{"task", "tracks", "median tokens", "ratio", "95% CI", "pairs", "only first passed", "only second passed", "McNemar p"},
	}
	several := rep.severalModels()
	for _, m := range rep.McNemar {
		row := []string{m.Task, trackLabel(m.A+"/"+m.B, m.Model, several), "", "", "", strconv.Itoa(m.Pairs), strconv.Itoa(m.OnlyA), strconv.Itoa(m.OnlyB), fmt.Sprintf("%.3f", m.P)}
		if m.Pairs == 0 {
			row[5], row[6], row[7], row[8] = "no pair", "", "", ""
		}
		for _, r := range rep.Ratios {
			if r.Task == m.Task && r.Model == m.Model && r.Num == m.A && r.Den == m.B {
				row[2] = num(r.NumMedian) + "/" + num(r.DenMedian)
				if r.Basis == "estimated" {
					row[2] += " (est.)"
				}
				row[3] = fmt.Sprintf("%.2f", r.Ratio)
				if r.Interval != nil {
					row[4] = fmt.Sprintf("[%.2f, %.2f]", r.Interval.Low, r.Interval.High)
				}
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// sequencesTable lists the distinct tool-call sequences.
func sequencesTable(rep *Report) table {
	t := table{title: "Tool sequences", header: []string{"task", "track", "episodes", "tool calls"}}
	for _, s := range rep.Sequences {
		t.rows = append(t.rows, []string{s.Task, trackLabel(s.Track, s.Model, rep.severalModels()), strconv.Itoa(s.Count), CollapseLoops(s.Tools)})
	}
	return t
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
			t.rows = append(t.rows, []string{g.Task, trackLabel(g.Track, g.Model, rep.severalModels()), strconv.Itoa(g.Seed), label(m), label(g.Members[0]), result, noteMarks(g.Notes)})
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
		k := [2]string{g.Task, trackLabel(g.Track, g.Model, rep.severalModels())}
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

// rateText formats a rate and its interval, or "-" when n is 0.
func rateText(n int, rate float64, iv Interval) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", rate, iv.Low, iv.High)
}

// medianText formats a median, or "-" when n is 0.
func medianText(n int, x float64) string {
	if n == 0 {
		return "-"
	}
	return num(x)
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

// num formats a median: a data value, or the midpoint of two for even n.
func num(x float64) string {
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

// trackLabel is a track as the tables show it: with its model in brackets
// when the report holds several models.
func trackLabel(track, model string, several bool) string {
	if !several {
		return track
	}
	return track + " (" + cmp.Or(model, "no model") + ")"
}
