package report

import (
	"cmp"
	"slices"

	"bench/record"
	"bench/runner"
)

// trackOrder is the order of the known tracks in every table, the
// registry's; other tracks follow alphabetically.
var trackOrder = runner.TrackWords()

// compareTracks orders track names: known tracks first, then the rest by name.
func compareTracks(a, b string) int {
	ia, ib := slices.Index(trackOrder, a), slices.Index(trackOrder, b)
	if ia < 0 {
		ia = len(trackOrder)
	}
	if ib < 0 {
		ib = len(trackOrder)
	}
	return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
}

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

// compareCells orders cells by task name, then track.
func compareCells(taskA, trackA, taskB, trackB string) int {
	return cmp.Or(cmp.Compare(taskA, taskB), compareTracks(trackA, trackB))
}
