package report

import (
	"cmp"
	"slices"

	"bench/record"
	"bench/trackfacts"
)

// compareTracks orders track names: the known tracks in trackfacts' order
// (the registry's), then the rest by name.
func compareTracks(a, b string) int { return trackfacts.Compare(a, b) }

// exitOrder is the order of the contract exit reasons; others follow by name.
var exitOrder = record.ExitReasons

// exitNames are exit reasons as the report's rows name them.
func exitNames(exits []record.ExitReason) []string {
	out := make([]string, len(exits))
	for i, e := range exits {
		out[i] = string(e)
	}
	return out
}

// compareExits orders exit reasons: contract reasons first, then by name.
func compareExits(a, b string) int {
	ia, ib := slices.Index(exitOrder, record.ExitReason(a)), slices.Index(exitOrder, record.ExitReason(b))
	if ia < 0 {
		ia = len(exitOrder)
	}
	if ib < 0 {
		ib = len(exitOrder)
	}
	return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
}
