package report

import (
	"cmp"
	"strings"
)

// variantRank orders variants as the runs' dimensions list them: by their
// place in the first run that has them, then (a variant no run.json
// lists) by name.
type variantRank map[string]int

// variantRanks ranks the variants of the aggregate's runs.
func (a *Aggregate) variantRanks() variantRank {
	r := variantRank{}
	for _, in := range a.inputs {
		for _, v := range in.run.Variants() {
			if _, ok := r[v]; !ok {
				r[v] = len(r)
			}
		}
	}
	return r
}

// compare orders variants x and y.
func (r variantRank) compare(x, y string) int {
	if x == y {
		return 0
	}
	rx, okx := r[x]
	ry, oky := r[y]
	switch {
	case okx && oky:
		return cmp.Compare(rx, ry)
	case okx:
		return -1
	case oky:
		return 1
	}
	return strings.Compare(x, y)
}

// variantSeed is what a variant adds to the name a bootstrap is seeded
// by: nothing without one, so that a run without dimensions keeps its
// intervals.
func variantSeed(variant string) string {
	if variant == "" {
		return ""
	}
	return "[" + variant + "]"
}
