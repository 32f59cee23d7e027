package html

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"bench/report"
)

// twinGroup is a report.TwinGroup laid out side by side: its first member
// against each of the others.
type twinGroup struct {
	ID          string // twins-<task>-<track>-<seed>
	Task, Track string
	Seed        int
	Notes       []int
	Pairs       []twinPair
	Summary     string        // the pairs' verdicts in one line
	Lazy        template.HTML // the pairs' tables, when the page builds them on opening
}

// twinPair is two twins' steps (model replies) in two aligned columns.
type twinPair struct {
	A, B      twinSide
	Verdict   string
	DivergeID string // the id of the divergent row, "" when identical
	Rows      []twinRow
}

// twinSide is one episode of a pair.
type twinSide struct {
	Label, Href, Outcome string
}

// twinRow is step i of both twins; Diverge marks the first that differs.
type twinRow struct {
	N         int
	A, B      string
	Same      bool
	Diverge   bool
	DivergeID string
}

// twinGroups lays out the report's twin groups, finding each member's
// episode (by run, task, track and name) for its steps and its link.
func twinGroups(rep *report.Report, eps []*episode) []twinGroup {
	type key struct{ run, task, track, model, name string }
	byKey := map[key]*episode{}
	for _, e := range eps {
		k := key{e.Run, e.Task, e.Track, e.Model, e.Name}
		if byKey[k] == nil {
			byKey[k] = e
		}
	}
	ids := map[string]int{}
	var out []twinGroup
	for _, g := range rep.Twins {
		tg := twinGroup{Task: g.Task, Track: g.Track, Seed: g.Seed, Notes: g.Notes,
			ID: unique(ids, "twins-"+idPart(g.Task)+"-"+idPart(g.Track)+"-"+strconv.Itoa(g.Seed))}
		if m := shownModel(rep, g.Model); m != "" {
			tg.Track += " · " + m
		}
		multiRun := false
		for _, m := range g.Members {
			multiRun = multiRun || m.Run != g.Members[0].Run
		}
		side := func(m report.TwinMember) (twinSide, *episode) {
			s := twinSide{Label: m.Name}
			if multiRun {
				s.Label = m.Run + ": " + m.Name
			}
			verdict := "failed"
			if m.Passed {
				verdict = "passed"
			}
			s.Outcome = fmt.Sprintf("%d steps, %s", m.Steps, verdict)
			e := byKey[key{m.Run, g.Task, g.Track, shownModel(rep, g.Model), m.Name}]
			if e != nil {
				s.Href = "#" + e.ID
			}
			return s, e
		}
		first, ea := side(g.Members[0])
		for i, m := range g.Members[1:] {
			second, eb := side(m)
			p := twinPair{A: first, B: second}
			diverge := -1
			if m.Identical {
				p.Verdict = fmt.Sprintf("identical: the same %d steps (model replies)", m.Steps)
			} else {
				diverge = m.DivergeAt - 1
				p.DivergeID = tg.ID + "-diverge-" + strconv.Itoa(i+1)
				p.Verdict = fmt.Sprintf("diverge at step %d", m.DivergeAt)
				if m.Hint != "" {
					p.Verdict += " (" + m.Hint + ")"
				}
			}
			p.Rows = twinRows(ea, eb, max(g.Members[0].Steps, m.Steps), diverge, p.DivergeID)
			tg.Pairs = append(tg.Pairs, p)
		}
		verdicts := make([]string, len(tg.Pairs))
		for i, p := range tg.Pairs {
			verdicts[i] = p.B.Label + ": " + p.Verdict
		}
		tg.Summary = strings.Join(verdicts, "; ")
		out = append(out, tg)
	}
	return out
}

// twinRows lines up n steps of a and b; the row at diverge (-1: none)
// is marked, those before it are the same.
func twinRows(a, b *episode, n, diverge int, divergeID string) []twinRow {
	rows := make([]twinRow, n)
	for i := range rows {
		rows[i] = twinRow{N: i + 1, A: replyAt(a, i), B: replyAt(b, i), Same: diverge < 0 || i < diverge}
		if i == diverge {
			rows[i].Diverge, rows[i].DivergeID = true, divergeID
		}
	}
	return rows
}

// replyAt is episode e's step i in one line.
func replyAt(e *episode, i int) string {
	switch {
	case e == nil || e.replies == nil && e.Note != "":
		return "(no trajectory)"
	case i < len(e.replies):
		return e.replies[i].Compact()
	}
	return "(stopped)"
}
