package tasks

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"bench/internal/suggest"
)

// All is the --tasks value that selects every task.
const All = "all"

// Catalogue returns the built-in tasks with those of the folder dir (a
// --tasks-dir, one subfolder per task) added, sorted by name; dir "" adds
// none. A task of dir named like a built-in one is an error naming both
// folders: a run's task names must say which task ran.
func Catalogue(dir string) ([]Task, error) {
	builtin, err := Builtin()
	if err != nil || dir == "" {
		return builtin, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--tasks-dir %s does not exist; give a folder holding one subfolder per task (as tasks/ in the source)", dir)
	}
	mine, err := FromDir(dir)
	if err != nil {
		return nil, err
	}
	for _, t := range mine {
		if Has(builtin, t.Name) {
			return nil, fmt.Errorf("task %q of --tasks-dir is %s, but bench has a built-in task of that name (tasks/%s, compiled into bench); rename the folder and its task.toml's name field",
				t.Name, filepath.Join(dir, t.Name), t.Name)
		}
	}
	all := slices.Concat(builtin, mine)
	slices.SortFunc(all, func(a, b Task) int { return cmp.Compare(a.Name, b.Name) })
	return all, nil
}

// Has reports whether a task of all is called name.
func Has(all []Task, name string) bool {
	return slices.ContainsFunc(all, func(t Task) bool { return t.Name == name })
}

// Names lists the names of all, in order.
func Names(all []Task) []string {
	out := make([]string, len(all))
	for i, t := range all {
		out[i] = t.Name
	}
	return out
}

// Pick selects the named tasks of all (every task when names is empty or
// All), in the order of names. A name it does not know is an error that
// names the nearest known task and lists them all.
func Pick(all []Task, names []string) ([]Task, error) {
	if len(names) == 1 && strings.TrimSpace(names[0]) == All {
		return all, nil
	}
	known := Names(all)
	for _, n := range names {
		if n = strings.TrimSpace(n); !Has(all, n) {
			return nil, fmt.Errorf("unknown task %q%s; known tasks: %s", n, suggest.DidYouMean(n, known, ""), strings.Join(known, ", "))
		}
	}
	return Select(all, names)
}

// PickForRun is Pick for the commands that run tasks (run, doctor,
// predict): without names it selects the four course tasks (Course, in
// the lesson's order) when all holds them, and every task of all (a
// --tasks-dir folder without them) otherwise.
func PickForRun(all []Task, names []string) ([]Task, error) {
	if len(names) > 0 {
		return Pick(all, names)
	}
	var out []Task
	for _, name := range Course { // the lesson's order, not the folders'
		i := slices.IndexFunc(all, func(t Task) bool { return t.Name == name })
		if i < 0 {
			return all, nil
		}
		out = append(out, all[i])
	}
	return out, nil
}

// CourseAnswers is the bench predict --answer value that answers each
// course task as it was designed, in the lesson's order
// ("parse_date=nny,slugify=yyy,…"), read from the tasks themselves so that
// an example built from it cannot drift.
func CourseAnswers() (string, error) {
	course, err := Load(Embedded())
	if err != nil {
		return "", err
	}
	var parts []string
	for _, name := range Course {
		if i := slices.IndexFunc(course, func(t Task) bool { return t.Name == name }); i >= 0 {
			parts = append(parts, name+"="+course[i].Answers.String())
		}
	}
	return strings.Join(parts, ","), nil
}

// NeedPrograms checks that the program of every test command of all is
// on PATH, so that a missing python3 is one sentence rather than a failed
// check per task.
func NeedPrograms(all []Task) error {
	seen := map[string]bool{}
	for _, t := range all {
		prog := t.TestCmd[0]
		if seen[prog] {
			continue
		}
		seen[prog] = true
		if _, err := exec.LookPath(prog); err != nil {
			return fmt.Errorf("%s is needed on PATH to run the tasks' tests (task %s), and it was not found", prog, t.Name)
		}
	}
	return nil
}
