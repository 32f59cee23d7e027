package report

import (
	"cmp"
	"strings"

	"bench/record"
)

// Variants are the variants of a run with dimensions, as its episodes name
// them (record.Episode.Variant): every combination of one value of each
// dimension, name=value joined by one space in the dimensions' order, the
// first dimension's values outermost, each dimension's in flag order. A
// run without dimensions has one variant, "".
func Variants(dims []record.Dimension) []string {
	out := []string{""}
	for _, d := range dims {
		var next []string
		for _, prefix := range out {
			for _, v := range d.Values {
				next = append(next, strings.TrimSpace(prefix+" "+d.Name+"="+v))
			}
		}
		if len(next) > 0 {
			out = next
		}
	}
	return out
}

// variantRank orders variants as the runs' dimensions list them: by their
// place in the first run that has them, then (a variant no run.json
// lists) by name.
type variantRank map[string]int

// variantRanks ranks the variants of the aggregate's runs.
func (a *Aggregate) variantRanks() variantRank {
	r := variantRank{}
	for _, in := range a.inputs {
		for _, v := range Variants(in.run.Dimensions) {
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
