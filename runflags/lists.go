package runflags

import (
	"slices"
	"strconv"
	"strings"

	"bench/internal/cliexit"
	"bench/internal/suggest"
	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// SplitList splits a comma-separated flag value, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitRaw splits a comma-separated list keeping blanks (trimmed), for the
// runner to refuse with a clear message; "" is no list.
func splitRaw(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// parseTracks splits a comma-separated list of track words, dropping
// repeats; runner.NewRun checks each word.
func parseTracks(s string) []string {
	var out []string
	for _, w := range SplitList(s) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// PickTracks reads a comma-separated list of track words (one word is a
// list too), in the order given, without repeats; empty means all tracks.
func PickTracks(s, flag string) ([]string, error) {
	words := SplitList(s)
	if len(words) == 0 {
		return runner.TrackWords(), nil
	}
	var out []string
	for _, w := range words {
		if _, ok := runner.LookupTrack(w); !ok {
			valid := runner.TrackWords()
			return nil, cliexit.Usagef("unknown track %q in %s%s: valid tracks are %s", w, flag, suggest.DidYouMean(w, valid, ""), strings.Join(valid, ", "))
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out, nil
}

// PickTasks is tasks.Pick; an unknown name is a usage error.
func PickTasks(all []tasks.Task, names []string) ([]tasks.Task, error) {
	picked, err := tasks.Pick(all, names)
	return picked, cliexit.UsageOf(err)
}

// PickRunTasks is tasks.PickForRun of the comma-separated names in list;
// an unknown name is a usage error.
func PickRunTasks(all []tasks.Task, list string) ([]tasks.Task, error) {
	picked, err := tasks.PickForRun(all, SplitList(list))
	return picked, cliexit.UsageOf(err)
}

// maxSeedRange is the most seeds one range a..b of --seeds may stand for.
const maxSeedRange = 100000

// ParseSeeds parses a comma-separated list of whole numbers and ranges
// a..b (every seed from a to b); repeats are kept (twin runs).
func ParseSeeds(s string) ([]int, error) {
	if len(SplitList(s)) == 0 {
		return nil, cliexit.Usagef("--seeds is empty: give a comma-separated list of whole numbers such as 1,2,3 or a range such as 1..8")
	}
	var seeds []int
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, cliexit.Usagef("bad --seeds %q: an empty seed between commas; give a comma-separated list such as 1,2,3", s)
		}
		lo, hi, isRange := strings.Cut(p, "..")
		if !isRange {
			hi = lo
		}
		a, err := parseSeed(s, lo)
		if err != nil {
			return nil, err
		}
		b, err := parseSeed(s, hi)
		if err != nil {
			return nil, err
		}
		if b < a || b-a >= maxSeedRange {
			return nil, cliexit.Usagef("bad --seeds %q: the range %s must run upwards over at most %d seeds, such as 1..8", s, p, maxSeedRange)
		}
		for n := a; n <= b; n++ {
			seeds = append(seeds, n)
		}
	}
	return seeds, nil
}

// parseSeed parses one seed p of the --seeds value s.
func parseSeed(s, p string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(p))
	if err != nil {
		return 0, cliexit.Usagef("bad --seeds %q: %q is not a whole number; give a comma-separated list such as 1,2,3 or a range such as 1..8", s, p)
	}
	if err := record.CheckSeed(n); err != nil {
		return 0, cliexit.Usagef("bad --seeds %q: %w", s, err)
	}
	return n, nil
}
