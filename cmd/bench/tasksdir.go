package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"

	"bench/tasks"
)

// addTasks returns the built-in tasks with those of the --tasks-dir folder
// dir added, sorted by name. A task of dir named like a built-in one is an
// error naming both folders: a run's task names must say which task ran.
func addTasks(builtin, mine []tasks.Task, dir string) ([]tasks.Task, error) {
	for _, t := range mine {
		if slices.ContainsFunc(builtin, func(b tasks.Task) bool { return b.Name == t.Name }) {
			return nil, fmt.Errorf("task %q of --tasks-dir is %s, but bench has a built-in task of that name (tasks/%s, compiled into bench); rename the folder and its task.toml's name field",
				t.Name, filepath.Join(dir, t.Name), t.Name)
		}
	}
	all := slices.Concat(builtin, mine)
	slices.SortFunc(all, func(a, b tasks.Task) int { return cmp.Compare(a.Name, b.Name) })
	return all, nil
}
