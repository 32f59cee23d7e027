package report

import (
	"cmp"
	"fmt"
	"slices"

	"bench/record"
	"bench/trackfacts"
)

// notRepeated is the caveat on twins that diverged although seeded.
const notRepeated = "the backend did not repeat a seeded run: twins with the same seed diverged (seeded sampling is not always repeatable)"

// twins finds the twin groups of every cell (same task, track, model,
// seed and configuration) among the counted episodes and compares each
// member with the first; noteDiverged adds the footnotes.
func (a *Aggregate) twins(cells []*cell) []TwinGroup {
	n := 0
	for _, c := range cells {
		n += len(c.twinGroups)
	}
	out := make([]TwinGroup, 0, n)
	for _, c := range cells {
		// One group at a time: a copy of a cell's groups at once is a
		// stretch the runtime cannot preempt, on fresh pages (see reserve).
		//lint:ignore S1011 the loop is the point
		for _, g := range c.twinGroups {
			out = append(out, g)
		}
	}
	return out
}

// twinsOf groups the counted episodes of c by configuration and seed and
// returns the groups of more than one, by seed, then in the order they
// first appear; each group in episode order.
func (a *Aggregate) twinsOf(c *cell) [][]uint32 {
	type member struct {
		config int
		seed   int64
		at     int // its place among c's counted episodes
	}
	ms := make([]member, len(c.counted))
	for i, k := range c.counted {
		e := &a.eps[c.idx[k]]
		ms[i] = member{a.inputs[e.input].config, e.seed, i}
	}
	slices.SortFunc(ms, func(x, y member) int {
		return cmp.Or(cmp.Compare(x.seed, y.seed), cmp.Compare(x.config, y.config), cmp.Compare(x.at, y.at))
	})
	type group struct {
		first int
		idx   []uint32
	}
	var groups []group
	for i := 0; i < len(ms); {
		j := i + 1
		for j < len(ms) && ms[j].seed == ms[i].seed && ms[j].config == ms[i].config {
			j++
		}
		if j-i > 1 {
			g := group{first: ms[i].at}
			for _, m := range ms[i:j] {
				g.idx = append(g.idx, c.idx[c.counted[m.at]])
			}
			groups = append(groups, g)
		}
		i = j
	}
	slices.SortStableFunc(groups, func(x, y group) int {
		return cmp.Or(cmp.Compare(a.eps[x.idx[0]].seed, a.eps[y.idx[0]].seed), cmp.Compare(x.first, y.first))
	})
	out := make([][]uint32, len(groups))
	for i, g := range groups {
		out[i] = g.idx
	}
	return out
}

// twinGroup compares the members of one group with its first member.
func (a *Aggregate) twinGroup(c *cell, g []uint32) TwinGroup {
	ref := &a.eps[g[0]]
	tg := TwinGroup{Task: c.task, Track: c.track, Model: c.model, Variant: c.variant, Seed: int(ref.seed), Members: make([]TwinMember, 0, len(g))}
	refSteps := a.steps.list(ref.steps)
	for i, k := range g {
		e := &a.eps[k]
		steps := a.steps.list(e.steps)
		m := TwinMember{
			Run:    a.runs[a.inputs[e.input].runIdx].label,
			Name:   record.TrajectoryName(int(e.seed), int(e.repeat)),
			Steps:  len(steps),
			Passed: e.pass(),
		}
		if i == 0 {
			m.Identical = true
		} else if d := firstDiff(refSteps, steps); d < 0 {
			m.Identical = true
		} else {
			m.DivergeAt = d + 1
			m.Hint = toolHint(a.seqs.list(ref.seq), a.seqs.list(e.seq))
		}
		tg.Members = append(tg.Members, m)
	}
	return tg
}

// noteDiverged refers each twin group with a member that diverged from
// the first to the footnote on seeded runs.
func noteDiverged(groups []TwinGroup, notes *footnotes) {
	for i, tg := range groups {
		for _, m := range tg.Members {
			if m.DivergeAt > 0 {
				groups[i].Notes = addTo(groups[i].Notes, notes.add(notRepeated))
			}
		}
	}
}

// firstDiff returns the first index at which a and b differ (the length of
// the shorter when one is a prefix of the other), or -1 when they are equal.
func firstDiff[T comparable](a, b []T) int {
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

// at returns the label of tool xs[i] (trackfacts.ToolLabel), or "(none)"
// past its end.
func at(xs []string, i int) string {
	if i < len(xs) {
		return trackfacts.ToolLabel(xs[i])
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
