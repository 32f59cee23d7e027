package report

import (
	"cmp"
	"slices"

	"bench/record"
)

// entry is one counted episode, the index of the input (run) it came from,
// and whether it passed as the report derives it (see verdictOf).
type entry struct {
	ep   *record.Outcome
	run  int32 // a million entries take 16 MB rather than 24
	pass bool
}

// cell holds the episodes of one task and track, in input order and then
// file order. Lost episodes (infrastructure errors) are not entries: they
// are only counted, with what the episodes say about the infrastructure.
type cell struct {
	task, track string
	model       string // the model asked; "" when none was
	entries     []entry
	runs        []int // the inputs with episodes in the cell, ascending
	lost        int   // episodes ended by an infrastructure error
	retries     int   // model calls retried, over all episodes (lost ones too)
	cutReplies  int   // replies cut at the reply cap, over all episodes
	timeouts    int   // counted episodes whose grading run timed out
	inconsist   int   // counted episodes whose line says passed against its test counts
	edited      int   // counted episodes whose trajectory was edited after the run
}

// grouping is the cells of the inputs and what was found on the way: the
// caveats that concern episodes rather than statistics.
type grouping struct {
	cells  []*cell
	checks checks
}

// group sorts the episodes of all inputs into cells, ordered by task name
// and then track (workflow, workflow-retry, agent, oracle, others by name).
// An episode of a run given twice (the same run id: `bench report D D`, or D
// and a copy of it) is counted once.
func group(inputs []record.Outcomes) grouping {
	type key struct{ task, track, model string }
	byKey := map[key]*cell{}
	var g grouping
	dup := duplicateRuns(inputs)
	seen := map[episodeID]bool{}
	for r := range inputs {
		eps := inputs[r].Episodes
		for i := range eps {
			ep := &eps[i]
			if dup[inputs[r].Run.ID] {
				id := episodeID{inputs[r].Run.ID, ep.Task, ep.Track, ep.Seed, ep.Repeat}
				if seen[id] {
					g.checks.duplicates++
					continue
				}
				seen[id] = true
			}
			k := key{ep.Task, ep.Track, modelOf(inputs[r].Run, ep)}
			c := byKey[k]
			if c == nil {
				c = &cell{task: k.task, track: k.track, model: k.model}
				byKey[k] = c
				g.cells = append(g.cells, c)
			}
			g.count(c, r, inputs[r].Dir, inputs[r].Run, ep)
		}
	}
	slices.SortFunc(g.cells, func(a, b *cell) int {
		return cmp.Or(cmp.Compare(a.task, b.task), cmp.Compare(a.model, b.model), compareTracks(a.track, b.track))
	})
	return g
}

// modelOf is the model an episode of run asked: its own field, or, for an
// episode written before episodes named it, its one-model run's.
func modelOf(run record.Run, ep *record.Outcome) string {
	if ep.Model != "" || run.SeveralModels() {
		return ep.Model
	}
	return run.Model
}

// count adds episode ep of input r (read from the folder dir) to cell c:
// as an entry with its derived verdict, or, when it was lost to an
// infrastructure error, only to the cell's count of lost episodes.
func (g *grouping) count(c *cell, r int, dir string, run record.Run, ep *record.Outcome) {
	if len(c.runs) == 0 || c.runs[len(c.runs)-1] != r {
		c.runs = append(c.runs, r)
	}
	c.retries += ep.Retries
	c.cutReplies += ep.CutReplies
	if ep.Lost() {
		c.lost++
		g.checks.lost++
		return
	}
	v := g.checks.verdict(dir, run, ep)
	if ep.GradingTimedOut {
		c.timeouts++
	}
	if v.inconsistent {
		c.inconsist++
	}
	if v.edited {
		c.edited++
	}
	c.entries = append(c.entries, entry{ep, int32(r), v.pass})
}

// episodeID identifies an episode across inputs: its run and its key.
type episodeID struct {
	run, task, track string
	seed, repeat     int
}

// duplicateRuns returns the run ids that more than one input holds.
func duplicateRuns(inputs []record.Outcomes) map[string]bool {
	n := map[string]int{}
	for _, in := range inputs {
		n[in.Run.ID]++
	}
	dup := map[string]bool{}
	for id, k := range n {
		if k > 1 {
			dup[id] = true
		}
	}
	return dup
}

// passes counts the passed episodes of a cell.
func passes(c *cell) int {
	n := 0
	for _, e := range c.entries {
		if e.pass {
			n++
		}
	}
	return n
}

// configKey names the configuration of a run: two episodes with the same
// task, track, seed and configKey are twins, whether they come from the same
// run or from merged runs with the same settings.
func configKey(r record.Run) string { return r.SettingsKey() }
