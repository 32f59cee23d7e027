package report

import (
	"cmp"
	"slices"

	"bench/record"
)

// entry is one episode and the index of the input (run) it came from.
type entry struct {
	ep  *record.Episode
	run int
}

// cell holds the episodes of one task and track, in input order and then
// file order.
type cell struct {
	task, track string
	entries     []entry
}

// group sorts the episodes of all inputs into cells, ordered by task name
// and then track (workflow, workflow-retry, agent, oracle, others by name).
func group(inputs []record.Data) []*cell {
	type key struct{ task, track string }
	byKey := map[key]*cell{}
	var cells []*cell
	for r := range inputs {
		eps := inputs[r].Episodes
		for i := range eps {
			k := key{eps[i].Task, eps[i].Track}
			c := byKey[k]
			if c == nil {
				c = &cell{task: k.task, track: k.track}
				byKey[k] = c
				cells = append(cells, c)
			}
			c.entries = append(c.entries, entry{&eps[i], r})
		}
	}
	slices.SortFunc(cells, func(a, b *cell) int {
		return cmp.Or(cmp.Compare(a.task, b.task), compareTracks(a.track, b.track))
	})
	return cells
}

// configKey names the configuration of a run: two episodes with the same
// task, track, seed and configKey are twins, whether they come from the same
// run or from merged runs with the same settings.
func configKey(r record.Run) string { return r.SettingsKey() }
