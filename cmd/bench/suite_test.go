package main

import (
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/runflags"
	"bench/tasks"
)

func taskNames(ts []tasks.Task) string {
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
	}
	return strings.Join(names, ",")
}

// TestRunTasksDefaultToTheCourse: with the whole suite built in, a run (and
// doctor, predict) without --tasks takes the four course tasks, as the
// README's main job says; --tasks all takes every task.
func TestRunTasksDefaultToTheCourse(t *testing.T) {
	t.Parallel()
	all, err := tasks.Catalogue("")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 16 || !tasks.Has(all, "go_clamp") {
		t.Fatalf("the built-in tasks are %s; want the whole suite", taskNames(all))
	}
	got, err := runflags.PickRunTasks(all, "")
	if err != nil || taskNames(got) != "parse_date,slugify,word_freq,leap_year" { // the lesson's order
		t.Errorf("default = %s, %v; want the four course tasks", taskNames(got), err)
	}
	for _, pick := range []func([]tasks.Task, []string) ([]tasks.Task, error){tasks.PickForRun, runflags.PickTasks} {
		got, err = pick(all, []string{"all"})
		if err != nil || len(got) != len(all) {
			t.Errorf("--tasks all = %s, %v; want every task", taskNames(got), err)
		}
	}
	dir := copyTasks(t)
	own, err := tasks.Catalogue(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err = runflags.PickRunTasks(own[:2], "")
	if err != nil || len(got) != 2 {
		t.Errorf("a --tasks-dir without the course tasks: default = %s, %v; want all of it", taskNames(got), err)
	}
}

// TestTasksVerifyGo: bench tasks verify checks a Go task as it does a
// Python one. Its three go test builds cost seconds of CPU; verify has no
// code of its own for Go, so short mode leaves it to grade's
// TestControlsHoldOnEverySuiteTask (go_clamp's original and partial fail,
// the partial with its expected output, its solution passes) and
// TestTasksVerify (the command and its table).
func TestTasksVerifyGo(t *testing.T) {
	fixture.FullOnly(t, "grade's TestControlsHoldOnEverySuiteTask (go_clamp) and TestTasksVerify")
	t.Parallel()
	fixture.NeedGo(t)
	out, _, err := runCLI(t, "tasks", "verify", "go_stack")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkGolden(t, "tasks-verify-go.golden", out)
}
