// This file holds how commands read list flags (--tasks, --tracks) and say
// that a name is unknown, with the nearest known one.

package main

import (
	"slices"
	"strings"

	"bench/internal/suggest"
	"bench/runner"
	"bench/tasks"
)

// unknownTrack is the error for a track word that is not in the registry.
func unknownTrack(word, flag string) error {
	valid := runner.TrackWords()
	return usagef("unknown track %q in %s%s: valid tracks are %s", word, flag, suggest.DidYouMean(word, valid, ""), strings.Join(valid, ", "))
}

// unknownTask is the error for a task name that none of all has.
func unknownTask(name string, all []tasks.Task) error {
	known := make([]string, len(all))
	for i, t := range all {
		known[i] = t.Name
	}
	return usagef("unknown task %q%s; known tasks: %s", name, suggest.DidYouMean(name, known, ""), strings.Join(known, ", "))
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
			return nil, unknownTrack(w, flag)
		}
		if !contains(out, w) {
			out = append(out, w)
		}
	}
	return out, nil
}

// allTasks is the --tasks value that selects every task.
const allTasks = "all"

// pickTasks selects the named tasks of all (every task when names is
// empty or "all"), naming the nearest known task for a name it does not know.
func pickTasks(all []tasks.Task, names []string) ([]tasks.Task, error) {
	if len(names) == 1 && strings.TrimSpace(names[0]) == allTasks {
		return all, nil
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !containsTask(all, n) {
			return nil, unknownTask(n, all)
		}
	}
	return tasks.Select(all, names)
}

func containsTask(all []tasks.Task, name string) bool {
	for _, t := range all {
		if t.Name == name {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pickRunTasks is pickTasks for the commands that run tasks (run, doctor,
// predict): without names it selects the four course tasks
// (tasks.Course, in the lesson's order) when all holds them, the README's main job, and
// every task of a --tasks-dir folder otherwise; "all" selects every task.
func pickRunTasks(all []tasks.Task, names []string) ([]tasks.Task, error) {
	if len(names) > 0 {
		return pickTasks(all, names)
	}
	var out []tasks.Task
	for _, name := range tasks.Course { // the lesson's order, not the folders'
		i := slices.IndexFunc(all, func(t tasks.Task) bool { return t.Name == name })
		if i < 0 {
			return all, nil
		}
		out = append(out, all[i])
	}
	return out, nil
}
