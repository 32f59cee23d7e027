package tasks

import (
	"fmt"
	"strings"
)

// Select returns the tasks of all named in names, in the order of names;
// no names selects all. An unknown name is an error listing the known ones.
func Select(all []Task, names []string) ([]Task, error) {
	if len(names) == 0 {
		return all, nil
	}
	byName := make(map[string]Task, len(all))
	known := make([]string, 0, len(all))
	for _, t := range all {
		byName[t.Name] = t
		known = append(known, t.Name)
	}
	var out []Task
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		t, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("unknown task %q; known tasks: %s", n, strings.Join(known, ", "))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, t)
		}
	}
	return out, nil
}
