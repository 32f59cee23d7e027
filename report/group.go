package report

import (
	"cmp"
	"runtime"
	"slices"
	"sync"

	"bench/internal/radix"
	"bench/record"
	"bench/trackfacts"
)

// cell is the episodes of one task, track, model and variant, in input
// order and then file order, and what is summed over them.
type cell struct {
	task, track string
	model       string   // the model asked; "" when none was
	variant     string   // its values of the run's dimensions (record.Episode.Variant); "" when the run has none
	idx         []uint32 // its episodes that stand (no copy of another), as indices of Aggregate.eps
	counted     []uint32 // of them, those counted in n (passed, failed, inconsistent)

	lost, interrupted int
	diverged          int // replayed episodes that could not follow their recording
	retries, cut      int // over the episodes that stand
	timeouts          int // counted episodes whose grading timed out
	contradicts       int // counted episodes whose line says passed against its tests
	edited            int // counted episodes whose trajectory was edited after the run
	gone              int // counted episodes whose recorded trajectory is gone
	planned, inPlan   int // episodes the runs' plans hold, and of them those with a line
	runs              []int

	// What the tables need of the counted episodes, made once (prepareCells):
	tokens, est, turns []float64   // sorted
	keys               []pairKey   // sorted, for McNemar
	seqs               []Sequence  // the most frequent distinct tool sequences, SequencesListed at most
	moreSeqs           MoreSeqs    // the others
	twinGroups         []TwinGroup // the twin groups
	row                Row         // its row but its notes (rowOf)
}

// group sorts the episodes into their cells, ordered by task, model,
// variant (as the runs' dimensions list their values) and then track
// (workflow, workflow-retry, agent, oracle, others by name),
// and sums each cell up. Planned cells without any line are cells too.
func (a *Aggregate) group() []*cell {
	a.plannedCells()
	sizes := make([]int, len(a.cells))
	for i := range a.eps {
		if a.eps[i].standing() {
			sizes[a.eps[i].cell]++
		}
	}
	for c, cl := range a.cells {
		*cl = cell{task: cl.task, track: cl.track, model: cl.model, variant: cl.variant, planned: cl.planned, idx: make([]uint32, 0, sizes[c])}
	}
	for g := range a.eps {
		e := &a.eps[g]
		if !e.standing() {
			continue
		}
		c := a.cells[e.cell]
		c.idx = append(c.idx, uint32(g))
		a.sum(c, e)
	}
	cells := slices.Clone(a.cells)
	rank := a.variantRanks()
	slices.SortFunc(cells, func(x, y *cell) int {
		return cmp.Or(cmp.Compare(x.task, y.task), cmp.Compare(x.model, y.model), rank.compare(x.variant, y.variant), trackfacts.Compare(x.track, y.track))
	})
	return cells
}

// sum adds episode e to the sums of its cell c.
func (a *Aggregate) sum(c *cell, e *epRec) {
	in := a.inputs[e.input]
	if n := len(c.runs); (n == 0 || c.runs[n-1] != in.runIdx) && !slices.Contains(c.runs, in.runIdx) {
		c.runs = append(c.runs, in.runIdx) // episodes come input by input: the last is mostly the one
	}
	c.retries += int(e.retries)
	c.cut += int(e.cut)
	if e.flags&flagInPlan != 0 {
		c.inPlan++
	}
	switch e.status {
	case record.StatusLost:
		c.lost++
		return
	case record.StatusInterrupted:
		c.interrupted++
		return
	case record.StatusDiverged:
		c.diverged++
		return
	}
	if !e.status.Counted() {
		return // a status no rate takes
	}
	c.counted = append(c.counted, uint32(len(c.idx)-1))
	switch e.flaw {
	case record.FlawGradingTimedOut:
		c.timeouts++
	case record.FlawContradicts:
		c.contradicts++
	case record.FlawTrajectoryEdited:
		c.edited++
	case record.FlawTrajectoryMissing:
		c.gone++
	}
}

// plannedCells adds up, per cell, the episodes each run's plan holds
// (counted once per run, not per copy of its folder), making a cell for a planned
// task, track, model and variant that no line reached.
func (a *Aggregate) plannedCells() {
	for _, c := range a.cells {
		c.planned = 0
	}
	for _, r := range a.runs {
		in := a.inputs[r.inputs[0]]
		for _, pc := range in.plan.Cells() {
			if pc.Episodes == 0 {
				continue
			}
			k := [4]string{pc.Task, pc.Track, pc.Model, pc.Variant}
			c, ok := a.cellOf[k]
			if !ok {
				c = int32(len(a.cells))
				a.cellOf[k] = c
				a.cells = append(a.cells, &cell{task: k[0], track: k[1], model: k[2], variant: k[3]})
			}
			a.cells[c].planned += pc.Episodes
		}
	}
}

// notRun is how many of a cell's planned episodes have no line.
func (c *cell) notRun() int { return max(0, c.planned-c.inPlan) }

// passes counts the passes among a cell's counted episodes.
func (a *Aggregate) passes(c *cell) int {
	n := 0
	for _, k := range c.counted {
		if a.eps[c.idx[k]].pass() {
			n++
		}
	}
	return n
}

// tokensOf returns a cell's counted token totals, sorted, reported or
// estimated (made by prepareCells).
func (a *Aggregate) tokensOf(c *cell, estimated bool) []float64 {
	if estimated {
		return c.est
	}
	return c.tokens
}

// prepareCells makes, for every cell at once (a goroutine each, as many at a
// time as there are processors), what the tables read of its counted
// episodes: sorted tokens and turns, the pair keys, the tool sequences
// and the twin groups.
func (a *Aggregate) prepareCells(cells []*cell) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, c := range cells {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			a.prepareCell(c)
		}()
	}
	wg.Wait()
}

// prepareCell makes what prepareCells makes of one cell.
func (a *Aggregate) prepareCell(c *cell) {
	n := len(c.counted)
	c.tokens, c.est, c.turns = make([]float64, n), make([]float64, n), make([]float64, n)
	for i, k := range c.counted {
		e := &a.eps[c.idx[k]]
		c.tokens[i], c.est[i], c.turns[i] = float64(e.tokens), float64(e.est), float64(e.turns)
	}
	radix.Floats(c.tokens)
	radix.Floats(c.est)
	radix.Floats(c.turns)
	c.row = a.rowOf(c)
	c.keys = a.keysOf(c)
	c.seqs, c.moreSeqs = a.sequences(c)
	groups := a.twinsOf(c)
	c.twinGroups = make([]TwinGroup, 0, len(groups)) // made once: growing it copies every group so far in one stretch the runtime cannot preempt (see reserve)
	for _, g := range groups {
		c.twinGroups = append(c.twinGroups, a.twinGroup(c, g))
	}
}
