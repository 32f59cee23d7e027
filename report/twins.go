package report

import (
	"fmt"
	"slices"

	"bench/record"
	"bench/trackfacts"
)

// notRepeated is the caveat on twins that diverged although seeded.
const notRepeated = "the backend did not repeat a seeded run: twins with the same seed diverged (seeded sampling is not always repeatable)"

// twins finds the twin groups of every cell (same task, track, seed and
// configuration) and compares each member with the first; noteDiverged
// adds the footnotes.
func twins(cells []*cell, inputs []record.Outcomes) []TwinGroup {
	configs := make([]int, len(inputs)) // the first input with the same configuration
	for i, in := range inputs {
		configs[i] = slices.IndexFunc(inputs, func(o record.Outcomes) bool { return configKey(o.Run) == configKey(in.Run) })
	}
	groups := make([][][]entry, len(cells))
	n := 0
	for i, c := range cells {
		groups[i] = twinsOf(c, configs)
		n += len(groups[i])
	}
	out := make([]TwinGroup, 0, n)
	for i, c := range cells {
		for _, g := range groups[i] {
			out = append(out, twinGroup(c, g, inputs))
		}
	}
	return out
}

// twinsOf groups the entries of c by seed and configuration (configs
// numbers them by input) and returns the groups of more than one, by
// seed, then in the order they first appear; each group in entry order.
// The groups share one array: a run of 200,000 episodes can have 100,000
// groups.
func twinsOf(c *cell, configs []int) [][]entry {
	var keys packedKeys
	idx := map[uint64]int32{}
	group := make([]int32, len(c.entries)) // the group of each entry
	var sizes []int32
	for i, e := range c.entries {
		k := keys.of(smallKey{configs[e.run], e.ep.Seed, 0})
		g, ok := idx[k]
		if !ok {
			g = int32(len(sizes))
			idx[k] = g
			sizes = append(sizes, 0)
		}
		group[i] = g
		sizes[g]++
	}
	twinned, groups := 0, 0
	for _, size := range sizes {
		if size > 1 {
			twinned, groups = twinned+int(size), groups+1
		}
	}
	all := make([]entry, twinned)
	out := make([][]entry, 0, groups)
	slot := make([]int32, len(sizes)) // each group's index in out, or -1 for a group of one
	at := 0
	for g, size := range sizes {
		slot[g] = -1
		if size > 1 {
			slot[g] = int32(len(out))
			out = append(out, all[at:at:at+int(size)])
			at += int(size)
		}
	}
	for i, e := range c.entries {
		if s := slot[group[i]]; s >= 0 {
			out[s] = append(out[s], e) // within its capacity: in place in all
		}
	}
	slices.SortStableFunc(out, func(a, b []entry) int { return a[0].ep.Seed - b[0].ep.Seed })
	return out
}

// twinGroup compares the members of one group with its first member.
func twinGroup(c *cell, g []entry, inputs []record.Outcomes) TwinGroup {
	tg := TwinGroup{Task: c.task, Track: c.track, Model: c.model, Seed: g[0].ep.Seed, Members: make([]TwinMember, 0, len(g))}
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
