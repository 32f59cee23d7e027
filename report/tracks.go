package report

import (
	"cmp"
	"slices"

	"bench/trackfacts"
)

// TrackRow sums up one track (of one model) over all tasks: the lesson's
// headline ("the workflow passes 2 of 4 tasks") and what the track spent.
type TrackRow struct {
	Track       string    `json:"track"`
	Model       string    `json:"model"`
	Variant     string    `json:"variant,omitempty"` // its values of the run's dimensions; "" when there are none
	Tasks       int       `json:"tasks"`             // tasks with counted episodes
	TasksSolved int       `json:"tasks_solved"`      // of them, tasks where more than half of the counted episodes passed
	NotCounted  int       `json:"tasks_not_counted"` // tasks planned or run on the track with no counted episode: neither solved nor unsolved
	N           int       `json:"n"`
	Passed      int       `json:"passed"`
	Rate        *float64  `json:"rate"`        // null when n is 0
	Wilson      *Interval `json:"wilson95"`    // null when n is 0
	Tokens      int       `json:"tokens"`      // backend-reported, summed over the counted episodes
	EstTokens   int       `json:"est_tokens"`  // offline estimate, summed
	Lost        int       `json:"lost"`        // episodes ended by an infrastructure error, not in n
	Interrupted int       `json:"interrupted"` // episodes cut short, not in n
	NotRun      int       `json:"not_run"`     // planned episodes without a line
	Retries     int       `json:"retries"`     // model calls retried, over all episodes
	CutReplies  int       `json:"cut_replies"` // replies cut at the reply cap, over all episodes
}

// trackRows sums the cells (ordered by task, then track) up per track and
// model, in the tables' track order.
func (a *Aggregate) trackRows(cells []*cell, rows []Row) []TrackRow {
	type key struct{ track, model, variant string }
	byTrack := map[key]*TrackRow{}
	var order []key
	for i, c := range cells {
		k := key{c.track, c.model, c.variant}
		t := byTrack[k]
		if t == nil {
			t = &TrackRow{Track: c.track, Model: c.model, Variant: c.variant}
			byTrack[k] = t
			order = append(order, k)
		}
		r := rows[i]
		for _, j := range c.counted {
			e := &a.eps[c.idx[j]]
			t.Tokens += int(e.tokens)
			t.EstTokens += int(e.est)
		}
		switch {
		case r.N == 0:
			t.NotCounted++
		case 2*r.Passed > r.N:
			t.Tasks++
			t.TasksSolved++
		default:
			t.Tasks++
		}
		t.N += r.N
		t.Passed += r.Passed
		t.Lost += r.Lost
		t.Interrupted += r.Interrupted
		t.NotRun += r.NotRun
		t.Retries += r.Retries
		t.CutReplies += r.CutReplies
	}
	rank := a.variantRanks()
	slices.SortFunc(order, func(x, y key) int {
		return cmp.Or(cmp.Compare(x.model, y.model), rank.compare(x.variant, y.variant), trackfacts.Compare(x.track, y.track))
	})
	out := make([]TrackRow, 0, len(order))
	for _, k := range order {
		t := byTrack[k]
		if t.N > 0 {
			rate, wilson := float64(t.Passed)/float64(t.N), Wilson(t.Passed, t.N)
			t.Rate, t.Wilson = &rate, &wilson
		}
		out = append(out, *t)
	}
	return out
}
