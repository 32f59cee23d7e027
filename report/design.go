package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"bench/lesson"
	"bench/record"
	"bench/trackfacts"
)

// DesignRow is what each track did on a group of tasks of one design: the
// tasks whose designed answer to one question is yes (or no), or the tasks
// of one archetype. The designs come from run.json's tasks; a task without
// one (a run older than them) is in no group.
type DesignRow struct {
	Question  int           `json:"question,omitempty"`  // 1, 2 or 3 for a question's row; 0 for an archetype's
	Answer    string        `json:"answer,omitempty"`    // "no" or "yes", the designed answer of a question's row
	Archetype string        `json:"archetype,omitempty"` // the archetype of an archetype's row
	Tasks     []string      `json:"tasks"`               // the group's tasks, sorted
	Tracks    []DesignCount `json:"tracks"`              // one per track of the report, in track order
}

// DesignCount is the episodes of one track and model over a group's
// tasks: Passed of N counted (lost and interrupted episodes are not
// counted, as in every row). Models are never pooled.
type DesignCount struct {
	Track   string `json:"track"`
	Model   string `json:"model"`
	Variant string `json:"variant,omitempty"` // the values of the runs' dimensions, when they have any
	Passed  int    `json:"passed"`
	N       int    `json:"n"`
	// QuestionCauses counts, in a question's row, the failed episodes
	// that carry a cause belonging to the question (record.CausesFor:
	// masked_failure for question 1, broke_tests for 2,
	// needs_other_file for 3): the evidence that its answer is "no".
	// Failed episodes whose lines record no causes are in no count.
	QuestionCauses int `json:"question_causes"`
}

// taskDesign is a task's archetype and designed answers, as run.json records them.
type taskDesign struct {
	archetype string
	answers   lesson.Answers
}

// designRows groups the rows by the tasks' designs: for each question, the
// tasks answered no and those answered yes; then each archetype, by name.
// Each group pools its tasks' counted episodes per track and model. It is
// nil when no task of the inputs records a design.
func designRows(inputs []*input, rows []Row) []DesignRow {
	designs := designsOf(inputs)
	if len(designs) == 0 {
		return nil
	}
	type series struct{ track, model, variant string }
	counts := map[string]map[series]DesignCount{} // task → series → count
	rowsOf := map[[4]string]Row{}
	var all []series
	for _, r := range rows {
		if _, ok := designs[r.Task]; !ok {
			continue
		}
		if counts[r.Task] == nil {
			counts[r.Task] = map[series]DesignCount{}
		}
		k := series{r.Track, r.Model, r.Variant}
		c := counts[r.Task][k]
		c.Track, c.Model, c.Variant, c.Passed, c.N = r.Track, r.Model, r.Variant, c.Passed+r.Passed, c.N+r.N
		counts[r.Task][k] = c
		rowsOf[[4]string{r.Task, r.Track, r.Model, r.Variant}] = r
		if !slices.Contains(all, k) {
			all = append(all, k)
		}
	}
	slices.SortStableFunc(all, func(x, y series) int {
		return cmp.Or(cmp.Compare(x.model, y.model), trackfacts.Compare(x.track, y.track))
	}) // stable: the rows hold the variants in order
	group := func(base DesignRow, in func(taskDesign) bool) (DesignRow, bool) {
		for _, name := range slices.Sorted(maps.Keys(designs)) {
			if in(designs[name]) {
				base.Tasks = append(base.Tasks, name)
			}
		}
		for _, s := range all {
			sum := DesignCount{Track: s.track, Model: s.model, Variant: s.variant}
			for _, name := range base.Tasks {
				sum.Passed += counts[name][s].Passed
				sum.N += counts[name][s].N
				for _, c := range record.CausesFor(base.Question) {
					sum.QuestionCauses += rowsOf[[4]string{name, s.track, s.model, s.variant}].CauseCount(c)
				}
			}
			base.Tracks = append(base.Tracks, sum)
		}
		return base, len(base.Tasks) > 0
	}
	var out []DesignRow
	for q := range lesson.Questions {
		for _, ans := range []string{"no", "yes"} {
			if r, ok := group(DesignRow{Question: q + 1, Answer: ans}, func(d taskDesign) bool { return d.answers.List()[q] == (ans == "yes") }); ok {
				out = append(out, r)
			}
		}
	}
	archetypes := map[string]bool{}
	for _, d := range designs {
		archetypes[d.archetype] = true
	}
	for _, a := range slices.Sorted(maps.Keys(archetypes)) {
		if r, ok := group(DesignRow{Archetype: a}, func(d taskDesign) bool { return d.archetype == a }); ok {
			out = append(out, r)
		}
	}
	return out
}

// designsOf reads each task's design from the inputs' run.json, the first
// input that records one winning (run.json's check refuses answers that
// are not three letters y or n).
func designsOf(inputs []*input) map[string]taskDesign {
	designs := map[string]taskDesign{}
	for _, in := range inputs {
		for _, ref := range in.run.Tasks {
			answers, err := lesson.Parse(ref.Answers)
			if _, seen := designs[ref.Name]; seen || err != nil {
				continue
			}
			designs[ref.Name] = taskDesign{archetype: cmp.Or(ref.Archetype, "(none)"), answers: answers}
		}
	}
	return designs
}

// designTables lays the design rows out: one table per question, its rows
// the tasks designed "no" and "yes", and one table of the archetypes.
func designTables(rep *Report) []table {
	var ts []table
	for q, text := range lesson.Questions {
		ts = append(ts, designTable(rep, fmt.Sprintf("Q%d by designed answer (counted episodes of the tasks of each answer, pooled per track): %s", q+1, text), "answer",
			func(r DesignRow) (string, bool) { return fmt.Sprintf("Q%d %s", q+1, r.Answer), r.Question == q+1 }))
	}
	ts = append(ts, designTable(rep, "By archetype (the task's design in task.toml; counted episodes of its tasks, pooled per track)", "archetype",
		func(r DesignRow) (string, bool) { return r.Archetype, r.Question == 0 }))
	return slices.DeleteFunc(ts, func(t table) bool { return len(t.rows) == 0 })
}

// designTable is a table of the design rows that pick accepts, labelled by pick.
func designTable(rep *Report, title, what string, pick func(DesignRow) (string, bool)) table {
	t := table{title: title, header: []string{what, "tasks"}}
	for _, r := range rep.Design {
		label, ok := pick(r)
		if !ok {
			continue
		}
		if len(t.rows) == 0 {
			for _, c := range r.Tracks {
				t.header = append(t.header, fullLabel(c.Track, c.Model, c.Variant, rep.severalModels())+" passed")
				if r.Question > 0 {
					t.header = append(t.header, fullLabel(c.Track, c.Model, c.Variant, rep.severalModels())+" failed by "+QuestionCauses(r.Question))
				}
			}
		}
		row := []string{label, strings.Join(r.Tasks, ", ")}
		if r.Question > 0 {
			row[1] = strconv.Itoa(len(r.Tasks))
		}
		for _, c := range r.Tracks {
			row = append(row, Fraction(c.Passed, c.N))
			if r.Question > 0 {
				row = append(row, Fraction(c.QuestionCauses, c.N-c.Passed))
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// QuestionCauses names the causes that belong to question q, joined by "/".
func QuestionCauses(q int) string {
	var names []string
	for _, c := range record.CausesFor(q) {
		names = append(names, string(c))
	}
	return strings.Join(names, "/")
}
