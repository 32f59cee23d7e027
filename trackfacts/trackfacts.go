// Package trackfacts holds what is fixed about each track, and nothing that
// runs one: its name (the command-line word, a contract of the results
// format), its place in every table, the tracks it is compared with per
// task, its colour in the plot and on the page, and the names of the tools
// the agent is offered. The runner's registry (runner/tracks.go) reads it,
// and so do the report and its views, which must not import the packages
// that execute episodes.
package trackfacts

import (
	"cmp"
	"slices"
)

// The names of the known tracks.
const (
	Workflow      = "workflow"
	WorkflowRetry = "workflow-retry"
	Hybrid        = "hybrid"
	Agent         = "agent"
	Oracle        = "oracle"
)

// Facts is what is fixed about one track.
type Facts struct {
	Name       string
	ComparedTo []string // the tracks this one is paired with per task (token ratio, McNemar)
	Colour     string   // "#rrggbb", from Palette
}

// known lists the tracks in the order every table lists them.
var known = []Facts{
	{Name: Workflow, Colour: Blue},
	{Name: WorkflowRetry, Colour: SkyBlue},
	{Name: Hybrid, ComparedTo: []string{Workflow, Agent}, Colour: ReddishPurple},
	{Name: Agent, ComparedTo: []string{Workflow, WorkflowRetry}, Colour: Orange},
	{Name: Oracle, Colour: BluishGreen},
}

// The colours of the Okabe–Ito palette but its black (the text colour),
// by their names there.
const (
	Blue          = "#0072B2"
	Orange        = "#E69F00"
	BluishGreen   = "#009E73"
	ReddishPurple = "#CC79A7"
	SkyBlue       = "#56B4E9"
	Vermillion    = "#D55E00"
	Yellow        = "#F0E442"
)

// Palette is the Okabe–Ito palette without its black: its colours stay
// distinct under the common kinds of colour-blindness.
var Palette = []string{Blue, Orange, BluishGreen, ReddishPurple, SkyBlue, Vermillion, Yellow}

// Lookup returns the facts of the track called name.
func Lookup(name string) (Facts, bool) {
	i := slices.IndexFunc(known, func(f Facts) bool { return f.Name == name })
	if i < 0 {
		return Facts{}, false
	}
	f := known[i]
	f.ComparedTo = slices.Clone(f.ComparedTo)
	return f, true
}

// ComparedTo returns the tracks that the track called name is compared
// with per task; none for a track it does not know.
func ComparedTo(name string) []string {
	f, _ := Lookup(name)
	return f.ComparedTo
}

// Pairs returns every (A, B) pair of tracks compared per task, in table
// order of A and then in the order A names them.
func Pairs() [][2]string {
	var out [][2]string
	for _, f := range known {
		for _, b := range f.ComparedTo {
			out = append(out, [2]string{f.Name, b})
		}
	}
	return out
}

// Compare orders track names as every table lists them: the known tracks
// in their order, then any other by name.
func Compare(a, b string) int {
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}

// rank is a track's place among the known ones, or after them all.
func rank(name string) int {
	if i := slices.IndexFunc(known, func(f Facts) bool { return f.Name == name }); i >= 0 {
		return i
	}
	return len(known)
}

// Colours gives each of tracks a colour: a known track its own, the others
// the colours of Palette that no known track of the list takes, in turn.
// The plot and the page both colour tracks with it.
func Colours(tracks []string) map[string]string {
	out := map[string]string{}
	used := map[string]bool{}
	for _, t := range tracks {
		if f, ok := Lookup(t); ok {
			out[t], used[f.Colour] = f.Colour, true
		}
	}
	var free []string
	for _, c := range Palette {
		if !used[c] {
			free = append(free, c)
		}
	}
	if len(free) == 0 {
		free = Palette
	}
	i := 0
	for _, t := range tracks {
		if _, ok := out[t]; !ok {
			out[t] = free[i%len(free)]
			i++
		}
	}
	return out
}
