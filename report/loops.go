package report

import (
	"slices"
	"strconv"
	"strings"

	"bench/trackfacts"
)

// maxLoopBlock is the longest block of tool calls CollapseLoops looks for
// repeats of.
const maxLoopBlock = 4

// CollapseLoops writes a sequence of tool calls with its loops collapsed:
// 25 list_files in a row become "list_files ×25", and a repeated block such
// as edit_file, run_tests, edit_file, run_tests becomes
// "(edit_file → run_tests) ×2". An empty sequence is "(none)". A tool the
// agent is not offered is shown quoted and escaped (trackfacts.ToolLabel).
func CollapseLoops(tools []string) string {
	if len(tools) == 0 {
		return "(none)"
	}
	labels := make([]string, len(tools))
	for i, t := range tools {
		labels[i] = trackfacts.ToolLabel(t)
	}
	return strings.Join(collapse(labels), " → ")
}

// collapse returns the parts of a collapsed sequence: at each position the
// block (of up to maxLoopBlock calls) whose repeats cover the most calls,
// the shortest such block on a tie; single calls otherwise.
func collapse(tools []string) []string {
	var parts []string
	for i := 0; i < len(tools); {
		bestLen, bestReps := 1, 1
		for l := 1; l <= maxLoopBlock && i+2*l <= len(tools); l++ {
			reps := 1
			for i+(reps+1)*l <= len(tools) && slices.Equal(tools[i:i+l], tools[i+reps*l:i+(reps+1)*l]) {
				reps++
			}
			if reps > 1 && reps*l > bestReps*bestLen {
				bestLen, bestReps = l, reps
			}
		}
		switch {
		case bestReps == 1:
			parts = append(parts, tools[i])
		case bestLen == 1:
			parts = append(parts, tools[i]+" ×"+strconv.Itoa(bestReps))
		default:
			inner := collapse(tools[i : i+bestLen])
			parts = append(parts, "("+strings.Join(inner, " → ")+") ×"+strconv.Itoa(bestReps))
		}
		i += bestLen * bestReps
	}
	return parts
}
