package paired

import "fmt"

// Caveat kinds: a contract of the JSON output, so that a view can select
// or count them. Text is the sentence a view prints as a footnote.
const (
	CaveatWithinNoise     = "within_noise"       // not significant at alpha
	CaveatCannotReach     = "cannot_reach_alpha" // no outcome with these n could be significant at alpha
	CaveatUnpaired        = "unpaired_test"      // no pair in the cell: the unpaired tests were used
	CaveatLeftOut         = "left_out"           // episodes without a pair are in no paired test
	CaveatNoDifference    = "no_difference"      // every pair concordant, or every difference zero
	CaveatRatioUndefined  = "ratio_undefined"    // a median is 0: no ratio
	CaveatUnbounded       = "interval_unbounded" // some resamples had a median of 0: no interval
	CaveatFewTasks        = "few_tasks"          // the bootstrap over tasks rests on few tasks
	CaveatAssumed         = "assumed_discordance"
	CaveatSeedsUnknown    = "seeds_unknown"    // the seeds needed cannot be estimated
	CaveatSeedsBeyond     = "seeds_beyond_max" // more than MaxSeeds per task would be needed
	CaveatUnpairedStrata  = "unpaired_strata"  // strata without pairs are left out of a pooled rank test
	CaveatDuplicates      = "duplicate_keys"   // a side holds a key more than once
	CaveatNothingCompared = "nothing_compared" // no cell held by both sides
)

// Caveat is a fact about a result that its reader needs: a kind from the
// list above and one sentence.
type Caveat struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

func caveat(kind, format string, args ...any) Caveat {
	return Caveat{Kind: kind, Text: fmt.Sprintf(format, args...)}
}
