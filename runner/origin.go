package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"bench/record"
	"bench/tasks"
)

// withOrigins returns all with the run's tasks that came from a --tasks-dir
// folder (their TaskRef's origin) loaded again from that folder, so that a
// run resumes without the flag being repeated. A task found there replaces
// one of the same name in all; when the folder is gone, or no longer holds
// the task, the task given in all (a folder named again with --tasks-dir)
// is used, and without one the error names the task and its folder.
func withOrigins(dir string, refs []record.TaskRef, all []tasks.Task) ([]tasks.Task, error) {
	loaded := map[string][]tasks.Task{} // origin → its tasks
	out := slices.Clone(all)
	for _, ref := range refs {
		if ref.Origin == "" || ref.Origin == record.OriginBuiltin {
			continue
		}
		ts, err := originFolder(ref.Origin, loaded)
		if err != nil {
			return nil, fmt.Errorf("cannot resume %s: task %s came from --tasks-dir %s: %w", dir, ref.Name, ref.Origin, err)
		}
		i := slices.IndexFunc(ts, func(t tasks.Task) bool { return t.Name == ref.Name })
		if i >= 0 {
			out = slices.DeleteFunc(out, func(t tasks.Task) bool { return t.Name == ref.Name })
			out = append(out, ts[i])
			continue
		}
		if !slices.ContainsFunc(all, func(t tasks.Task) bool { return t.Name == ref.Name }) {
			where := "which is gone"
			if ts != nil {
				where = "which no longer holds it"
			}
			return nil, fmt.Errorf("cannot resume %s: task %s came from --tasks-dir %s, %s; give the folder that holds it now with --tasks-dir", dir, ref.Name, ref.Origin, where)
		}
	}
	return out, nil
}

// originFolder loads the tasks of the folder origin once; a folder that no
// longer exists gives no tasks and no error.
func originFolder(origin string, loaded map[string][]tasks.Task) ([]tasks.Task, error) {
	if ts, ok := loaded[origin]; ok {
		return ts, nil
	}
	var ts []tasks.Task
	if _, err := os.Stat(origin); err == nil {
		if ts, err = tasks.FromDir(origin); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	loaded[origin] = ts
	return ts, nil
}
