package report

import (
	"fmt"
	"slices"

	"bench/record"
)

// notRepeated is the caveat on twins that diverged although seeded.
const notRepeated = "the backend did not repeat a seeded run: twins with the same seed diverged (seeded sampling is not always repeatable)"

// twins finds the twin groups of every cell (same task, track, seed and
// configuration) and compares each member with the first.
func twins(cells []*cell, inputs []record.Data, notes *footnotes) []TwinGroup {
	keys := make([]string, len(inputs))
	for i, in := range inputs {
		keys[i] = configKey(in.Run)
	}
	var out []TwinGroup
	for _, c := range cells {
		type gk struct {
			seed   int
			config string
		}
		idx := map[gk]int{}
		var groups [][]entry
		for _, e := range c.entries {
			k := gk{e.ep.Seed, keys[e.run]}
			i, ok := idx[k]
			if !ok {
				i = len(groups)
				idx[k] = i
				groups = append(groups, nil)
			}
			groups[i] = append(groups[i], e)
		}
		first := len(out)
		for _, g := range groups {
			if len(g) > 1 {
				out = append(out, twinGroup(c, g, inputs, notes))
			}
		}
		slices.SortStableFunc(out[first:], func(a, b TwinGroup) int { return a.Seed - b.Seed })
	}
	return out
}

// twinGroup compares the members of one group with its first member.
func twinGroup(c *cell, g []entry, inputs []record.Data, notes *footnotes) TwinGroup {
	tg := TwinGroup{Task: c.task, Track: c.track, Model: c.model, Seed: g[0].ep.Seed}
	ref := g[0].ep
	for i, e := range g {
		m := TwinMember{
			Run:    inputs[e.run].Run.ID,
			Name:   record.TrajectoryName(e.ep.Seed, e.ep.Repeat),
			Steps:  len(e.ep.Steps),
			Passed: e.pass,
		}
		if i == 0 {
			m.Identical = true
		} else if k := firstDiff(ref.Steps, e.ep.Steps); k < 0 {
			m.Identical = true
		} else {
			m.DivergeAt = k + 1
			m.Hint = toolHint(ref.ToolCalls, e.ep.ToolCalls)
			tg.Notes = addTo(tg.Notes, notes.add(notRepeated))
		}
		tg.Members = append(tg.Members, m)
	}
	return tg
}

// firstDiff returns the first index at which a and b differ (the length of
// the shorter when one is a prefix of the other), or -1 when they are equal.
func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return min(len(a), len(b))
}

// toolHint describes the first tool call at which two sequences differ, for
// a person reading where twins diverged; "" when they are the same.
func toolHint(a, b []string) string {
	k := firstDiff(a, b)
	if k < 0 {
		return ""
	}
	return fmt.Sprintf("tool call %d: %s vs %s", k+1, at(a, k), at(b, k))
}

// at returns xs[i], or "(none)" past its end.
func at(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return "(none)"
}

// markDivergedRows refers the rows of cells with diverged twins to the
// footnote on seeded runs.
func markDivergedRows(rep *Report, notes *footnotes) {
	for _, tg := range rep.Twins {
		if len(tg.Notes) == 0 {
			continue
		}
		for i := range rep.Rows {
			if rep.Rows[i].Task == tg.Task && rep.Rows[i].Track == tg.Track && rep.Rows[i].Model == tg.Model {
				for _, id := range tg.Notes {
					rep.Rows[i].Notes = addTo(rep.Rows[i].Notes, id)
				}
			}
		}
	}
}
