// This file holds how commands read list flags (--tasks, --tracks): the
// tasks and tracks packages pick, and a name they do not know is a mistake
// on the command line (exit 2).

package main

import (
	"slices"
	"strings"

	"bench/internal/suggest"
	"bench/runner"
	"bench/tasks"
)

// pickTasks is tasks.Pick; an unknown name is a usage error.
func pickTasks(all []tasks.Task, names []string) ([]tasks.Task, error) {
	picked, err := tasks.Pick(all, names)
	return picked, usage(err)
}

// pickRunTasks is tasks.PickForRun; an unknown name is a usage error.
func pickRunTasks(all []tasks.Task, names []string) ([]tasks.Task, error) {
	picked, err := tasks.PickForRun(all, names)
	return picked, usage(err)
}

// pickTracks reads a comma-separated list of track words (one word is a
// list too), in the order given, without repeats; empty means all tracks.
func pickTracks(s, flag string) ([]string, error) {
	words := splitList(s)
	if len(words) == 0 {
		return runner.TrackWords(), nil
	}
	var out []string
	for _, w := range words {
		if _, ok := runner.LookupTrack(w); !ok {
			valid := runner.TrackWords()
			return nil, usagef("unknown track %q in %s%s: valid tracks are %s", w, flag, suggest.DidYouMean(w, valid, ""), strings.Join(valid, ", "))
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out, nil
}
