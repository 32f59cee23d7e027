package report

import (
	"slices"

	"bench/report/paired"
)

// TrackPooled is, within one run, the answer pooled over tasks to "does
// the agent change success against a workflow track, and what does it
// cost": the agent is the new side, the workflow track the old, their
// episodes paired by task, model, seed and repeat (paired.Compare with
// Options.AcrossTracks). Its pass.test and pass.difference hold the
// stratified test's name and p, the change in pass rate and its interval;
// its tokens.ratio the ratio of the token medians with a bootstrap over
// tasks and seeds; pass.seeds the seeds per task that would detect the
// change.
type TrackPooled struct {
	// Dimension is what is compared: "track" (New and Old are tracks), or
	// a dimension of the runs (New and Old are its values, and the entry's
	// track is the one compared on).
	Dimension  string `json:"dimension"`
	New        string `json:"new"`         // the agent track, or the dimension's value
	Old        string `json:"old"`         // the workflow track it is held against, or the dimension's first value
	TokenBasis string `json:"token_basis"` // BasisReported or BasisEstimated
	Notes      []int  `json:"notes,omitempty"`
	paired.PooledResult
}

// pooledTracks pools, per pair of tracks compared (the agent against each
// workflow track, trackfacts.Pairs) and model, the tasks both tracks hold,
// with the caveats as footnotes. Episodes pair only within a run, as the
// report's McNemar tests pair them (two runs' seeds are not matched
// draws); the pairs of several runs are pooled, as the rows pool them.
func (a *Aggregate) pooledTracks(cells []*cell, notes *footnotes, effect float64) []TrackPooled {
	out := []TrackPooled{} // [] in the JSON when there is none
	runOf := a.runKey()
	for _, p := range pairedTracks {
		newCells, oldCells := tracksCells(cells, p[0]), tracksCells(cells, p[1])
		basis := tokenBasis(sideCells{a, newCells}, sideCells{a, oldCells})
		old, nOld := a.pairedEpisodes(oldCells, basis, runOf)
		new, nNew := a.pairedEpisodes(newCells, basis, runOf)
		if nOld == 0 || nNew == 0 {
			continue
		}
		c, err := paired.Compare(old, new, paired.Options{AcrossTracks: true, Seed: 1, PooledOnly: true, Effect: effect})
		if err != nil { // the episodes' counts are never negative: no error can come
			continue
		}
		for _, pr := range c.Pooled {
			tp := TrackPooled{Dimension: DimensionTrack, New: p[0], Old: p[1], TokenBasis: basis, PooledResult: pr}
			tp.Notes = pooledNotes(pr, tp.prefix(), notes)
			out = append(out, tp)
		}
	}
	return out
}

// DimensionTrack is the Dimension of a pooled answer that compares two
// tracks.
const DimensionTrack = "track"

// runStride separates the repeats of different runs in the pairing key.
const runStride = 1 << 20

// runKey returns what keeps episodes of different runs from pairing when
// the aggregate holds several runs: each episode's repeat is moved by its
// run's index times runStride (nil, nothing moved, for one run). The
// runs' tasks are still pooled, as the report's rows pool them.
func (a *Aggregate) runKey() func(e *epRec, ep paired.Episode) paired.Episode {
	if len(a.runs) < 2 {
		return nil
	}
	return func(e *epRec, ep paired.Episode) paired.Episode {
		ep.Repeat += a.inputs[e.input].runIdx * runStride
		return ep
	}
}

// tracksCells are the cells of one track.
func tracksCells(cells []*cell, track string) []*cell {
	var out []*cell
	for _, c := range cells {
		if c.track == track {
			out = append(out, c)
		}
	}
	return out
}

// prefix names a pooled answer in its footnotes.
func (tp TrackPooled) prefix() string {
	s := tp.New + " against " + tp.Old
	if tp.Dimension != DimensionTrack {
		s = tp.Dimension + " " + s + ", " + tp.Track
	}
	for _, x := range []string{tp.Model, tp.Variant} {
		if x != "" {
			s += " (" + x + ")"
		}
	}
	return s + ": "
}

// pooledTables lays a report's pooled answers out as one table, none
// when there are none.
func pooledTables(pooled []TrackPooled) []table {
	if len(pooled) == 0 {
		return nil
	}
	t := table{title: "Agent against workflow, pooled over tasks (new − old: the agent minus the workflow track; stratified by task)",
		header: append([]string{"new", "old"}, pooledHeader...)}
	several := false
	for _, p := range pooled {
		several = several || p.Model != pooled[0].Model
	}
	if several {
		t.header = slices.Insert(t.header, 2, "model")
	}
	for _, p := range pooled {
		row := append([]string{p.New, p.Old + " " + noteMarks(p.Notes)}, pooledCells(p.PooledResult)...)
		if several {
			row = slices.Insert(row, 2, p.Model)
		}
		t.rows = append(t.rows, row)
	}
	return []table{t}
}
