package report

import (
	"cmp"
	"slices"
)

// TrackRow sums up one track over all tasks: the lesson's headline ("the
// workflow passes 2 of 4 tasks") and what the track spent.
type TrackRow struct {
	Track       string   `json:"track"`
	Model       string   `json:"model"`
	Tasks       int      `json:"tasks"`
	TasksSolved int      `json:"tasks_solved"` // tasks where more than half of the episodes passed
	N           int      `json:"n"`
	Passed      int      `json:"passed"`
	Rate        float64  `json:"rate"`
	Wilson      Interval `json:"wilson95"`
	Tokens      int      `json:"tokens"`      // backend-reported, summed over the episodes
	EstTokens   int      `json:"est_tokens"`  // offline estimate, summed
	Lost        int      `json:"lost"`        // episodes ended by an infrastructure error, not in n
	Retries     int      `json:"retries"`     // model calls retried, over all episodes
	CutReplies  int      `json:"cut_replies"` // replies cut at the reply cap, over all episodes
}

// trackRows sums the cells (ordered by task, then track) up per track, in
// the tables' track order.
func trackRows(cells []*cell) []TrackRow {
	type key struct{ track, model string }
	byTrack := map[key]*TrackRow{}
	var order []key
	for _, c := range cells {
		k := key{c.track, c.model}
		t := byTrack[k]
		if t == nil {
			t = &TrackRow{Track: c.track, Model: c.model}
			byTrack[k] = t
			order = append(order, k)
		}
		passed := 0
		for _, e := range c.entries {
			if e.pass {
				passed++
			}
			t.Tokens += e.ep.Tokens
			t.EstTokens += e.ep.EstTokens
		}
		t.Tasks++
		if 2*passed > len(c.entries) {
			t.TasksSolved++
		}
		t.N += len(c.entries)
		t.Passed += passed
		t.Lost += c.lost
		t.Retries += c.retries
		t.CutReplies += c.cutReplies
	}
	slices.SortFunc(order, func(a, b key) int { return cmp.Or(cmp.Compare(a.model, b.model), compareTracks(a.track, b.track)) })
	rows := make([]TrackRow, 0, len(order))
	for _, name := range order {
		t := byTrack[name]
		if t.N > 0 {
			t.Rate = float64(t.Passed) / float64(t.N)
		}
		t.Wilson = Wilson(t.Passed, t.N)
		rows = append(rows, *t)
	}
	return rows
}
