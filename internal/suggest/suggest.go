// Package suggest finds the known name nearest to a mistyped one, so that
// every "unknown flag, command, task or track" message can ask "did you
// mean …?" the same way.
package suggest

import (
	"strings"

	"github.com/xrash/smetrics"
)

// Nearest returns the candidate closest to word by edit distance
// (Levenshtein, ignoring case), or "" when none is close enough to be a
// likely typo: one edit away for a word of up to four letters, else two
// edits or a third of its length, whichever is more. A candidate that word is a prefix or an
// abbreviation of (its first letter, then some of its letters in order:
// "rpt" for "report") counts as one edit away, for a word of three letters
// or more. Ties go to the candidate more alike by Jaro-Winkler
// (which favours swapped letters and a shared start), then to the earlier
// one, so the answer is stable.
func Nearest(word string, candidates []string) string {
	w := strings.ToLower(word)
	if w == "" {
		return ""
	}
	limit := 1
	if len(w) > 4 {
		limit = max(2, len(w)/3)
	}
	best, bestDist, bestSim := "", limit+1, 0.0
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == w {
			return c
		}
		d := smetrics.WagnerFischer(w, lc, 1, 1, 1)
		if len(w) >= 3 && (strings.HasPrefix(lc, w) || abbreviates(w, lc)) {
			d = min(d, 1)
		}
		sim := smetrics.JaroWinkler(w, lc, 0.7, 4)
		if d > limit {
			continue
		}
		if d < bestDist || d == bestDist && sim > bestSim {
			best, bestDist, bestSim = c, d, sim
		}
	}
	return best
}

// DidYouMean returns " (did you mean X?)" for the nearest candidate, with
// prefix written before it (such as "--"), or "" when there is none.
func DidYouMean(word string, candidates []string, prefix string) string {
	n := Nearest(word, candidates)
	if n == "" {
		return ""
	}
	return " (did you mean " + prefix + n + "?)"
}

// abbreviates reports whether w is an abbreviation of c: it starts with
// c's first letter and the rest of its letters appear in c in order.
func abbreviates(w, c string) bool {
	if w == "" || c == "" || w[0] != c[0] {
		return false
	}
	i := 1
	for j := 1; j < len(c) && i < len(w); j++ {
		if c[j] == w[i] {
			i++
		}
	}
	return i == len(w)
}
