package html

import (
	"fmt"
	"strconv"
	"strings"

	"bench/lesson"
	"bench/report"
)

// designTable is one table of the design section: the tasks answered no and
// yes to one question, or the tasks of each archetype, and what each track
// passed on them.
type designTable struct {
	Title, Label string // the table's title and its first column's header
	Tracks       []string
	Rows         []designRow
}

// designRow is one group of tasks: its label, its tasks (a count for a
// question, the names for an archetype) and "passed/n" per track.
type designRow struct {
	Label, Tasks string
	Counts       []string
}

// designTables lays out the report's design rows as the text report does:
// one table per question, then one of the archetypes; nil without designs.
func designTables(rep *report.Report) []designTable {
	var out []designTable
	for q, text := range lesson.Questions {
		t := designTable{Title: fmt.Sprintf("Q%d. %s", q+1, text), Label: "designed answer"}
		for _, r := range rep.Design {
			if r.Question == q+1 {
				t.add(rep, fmt.Sprintf("Q%d %s", q+1, r.Answer), strconv.Itoa(len(r.Tasks)), r)
			}
		}
		out = append(out, t)
	}
	arch := designTable{Title: "By archetype (the task's design in task.toml)", Label: "archetype"}
	for _, r := range rep.Design {
		if r.Question == 0 {
			arch.add(rep, r.Archetype, strings.Join(r.Tasks, ", "), r)
		}
	}
	out = append(out, arch)
	kept := out[:0]
	for _, t := range out {
		if len(t.Rows) > 0 {
			kept = append(kept, t)
		}
	}
	return kept
}

// add appends the row of one design group, taking the tracks (and their
// models, when the page holds several) from the first.
func (t *designTable) add(rep *report.Report, label, taskText string, r report.DesignRow) {
	row := designRow{Label: label, Tasks: taskText}
	for _, c := range r.Tracks {
		if len(t.Rows) == 0 {
			name := c.Track
			if m := shownModel(rep, c.Model); m != "" {
				name += " · " + m
			}
			name = report.VariantLabel(name, c.Variant)
			t.Tracks = append(t.Tracks, name+" passed")
			if r.Question > 0 {
				t.Tracks = append(t.Tracks, name+" failed by "+report.QuestionCauses(r.Question))
			}
		}
		row.Counts = append(row.Counts, report.Fraction(c.Passed, c.N))
		if r.Question > 0 {
			row.Counts = append(row.Counts, report.Fraction(c.QuestionCauses, c.N-c.Passed))
		}
	}
	t.Rows = append(t.Rows, row)
}
