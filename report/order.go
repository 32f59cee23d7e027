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
var exitOrder = []string{record.ExitDone, record.ExitMaxTurns, record.ExitTokenBudget, record.ExitTimeout, record.ExitInterrupted, record.ExitError}

// compareExits orders exit reasons: contract reasons first, then by name.
func compareExits(a, b string) int {
	ia, ib := slices.Index(exitOrder, a), slices.Index(exitOrder, b)
	if ia < 0 {
		ia = len(exitOrder)
	}
	if ib < 0 {
		ib = len(exitOrder)
	}
	return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
}
