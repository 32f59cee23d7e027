package report

import (
	"cmp"
	"slices"

	"bench/record"
)

// exitNames are exit reasons as the report's rows name them.
func exitNames(exits []record.ExitReason) []string {
	out := make([]string, len(exits))
	for i, e := range exits {
		out[i] = string(e)
	}
	return out
}

// compareExits orders exit reasons: the contract's first, in
// record.ExitReasons' order, then the others by name.
func compareExits(a, b string) int {
	ia, ib := slices.Index(record.ExitReasons, record.ExitReason(a)), slices.Index(record.ExitReasons, record.ExitReason(b))
	if ia < 0 {
		ia = len(record.ExitReasons)
	}
	if ib < 0 {
		ib = len(record.ExitReasons)
	}
	return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
}
