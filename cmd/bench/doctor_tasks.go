package main

import (
	"context"
	"fmt"
	"strings"

	"bench/runner"
	"bench/tasks"
)

// tasksCheck runs the oracle check (runner.VerifyAll, in parallel and
// cached) of every task: a run whose fixtures do not fail and pass as
// designed measures nothing.
func tasksCheck(ctx context.Context, taskList []tasks.Task) check {
	var bad []string
	for i, v := range runner.VerifyAll(ctx, taskList, runner.DefaultVerifyCache()) {
		t := taskList[i]
		if v.OK() {
			continue
		}
		why := "no check ran"
		for _, c := range v.Checks {
			if !c.OK {
				why = c.Name + ": " + c.Detail
				break
			}
		}
		bad = append(bad, t.Name+" ("+why+")")
	}
	if len(bad) > 0 {
		return check{Name: checkTasks, Detail: fmt.Sprintf("%d of %d fail the oracle check: %s", len(bad), len(taskList), strings.Join(bad, "; ")),
			Fix: "bench tasks verify (shows every check)"}
	}
	return check{Name: checkTasks, OK: true, Detail: fmt.Sprintf("%d pass the oracle check", len(taskList))}
}
