package report

import (
	"fmt"
	"slices"
	"strings"

	"bench/internal/words"
	"bench/record"
)

// checkedNotes are the footnote IDs of the caveats on episodes, 0 when
// there is none, for the rows to refer to.
type checkedNotes struct {
	lost, inconsistent, timeouts, edited int
}

// of returns the IDs of the caveats that concern the episodes of c.
func (k checkedNotes) of(c *cell) []int {
	var ids []int
	for _, x := range []struct{ n, id int }{{c.lost, k.lost}, {c.inconsist, k.inconsistent}, {c.timeouts, k.timeouts}, {c.edited, k.edited}} {
		if x.n > 0 && x.id > 0 {
			ids = addTo(ids, x.id)
		}
	}
	return ids
}

// checkNotes adds the footnotes on episodes that the report did not take at
// their word, and on runs given twice.
func checkNotes(k checks, inputs []record.Outcomes, notes *footnotes) checkedNotes {
	var ids checkedNotes
	if k.lost > 0 {
		ids.lost = notes.add(words.Plural(k.lost, "episode") + " lost to server errors, not counted (infrastructure errors: unreachable, timeout, server, bad_reply; bench run --resume redoes them)")
	}
	if k.inconsistent > 0 {
		ids.inconsistent = notes.add(words.Plural(k.inconsistent, "episode") + " inconsistent: the line says passed but its test counts disagree (not all tests passed, or none ran): not counted as passes")
	}
	if k.timeouts > 0 {
		ids.timeouts = notes.add(fmt.Sprintf("grading timed out in %s (the tests ran past their time limit): counted as failed", words.Plural(k.timeouts, "episode")))
	}
	if k.edited.n > 0 {
		ids.edited = notes.add(fmt.Sprintf("%s edited after the run (SHA-256 differs from the one recorded), not counted as passes: %s",
			words.Plural(k.edited.n, "trajectory file"), k.edited))
	}
	return ids
}

// checkRunNotes adds the footnotes on the run folders that rows do not
// refer to: missing trajectory files and runs given twice.
func checkRunNotes(k checks, inputs []record.Outcomes, notes *footnotes) {
	if k.missing.n > 0 {
		notes.add(fmt.Sprintf("%s missing (bench show cannot show those episodes): %s", words.Plural(k.missing.n, "trajectory file"), k.missing))
	}
	if k.duplicates > 0 {
		dirs := map[string][]string{}
		var ids []string
		for _, in := range inputs {
			if dirs[in.Run.ID] == nil {
				ids = append(ids, in.Run.ID)
			}
			dirs[in.Run.ID] = append(dirs[in.Run.ID], in.Dir)
		}
		var parts []string
		for _, id := range ids {
			if d := dirs[id]; len(d) > 1 {
				parts = append(parts, fmt.Sprintf("run %s is given %d times (%s)", id, len(d), strings.Join(d, ", ")))
			}
		}
		slices.Sort(parts)
		notes.add(strings.Join(parts, "; ") + ": each episode counted once")
	}
}

// firstFewMax is how many paths a footnote names.
const firstFewMax = 3
