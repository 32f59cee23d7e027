package preflight

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"bench/tasks"
	"bench/testrun"
	"bench/verify"
)

// pythonCheck runs `python3 --version`: the tasks' tests need it.
func pythonCheck(ctx context.Context) Check {
	fix := "install Python 3 (e.g. apt-get install python3, brew install python)"
	path, err := exec.LookPath("python3")
	if err != nil {
		return Check{Name: Python, Status: Fail, Text: "python3 is not on PATH", Fix: fix}
	}
	path = testrun.Interpreter(path) // the interpreter the tests run, without a version manager's shim
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return Check{Name: Python, Status: Fail, Text: fmt.Sprintf("%s --version failed: %v", path, err), Fix: fix}
	}
	return Check{Name: Python, Status: Pass, Text: strings.TrimSpace(string(out))}
}

// tasksCheck runs the oracle check (verify.All, in parallel and
// cached) of every task: a run whose fixtures do not fail and pass as
// designed measures nothing.
func tasksCheck(ctx context.Context, taskList []tasks.Task) Check {
	var bad []string
	for i, v := range verify.All(ctx, taskList, verify.DefaultCache()) {
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
		return Check{Name: Tasks, Status: Fail, Text: fmt.Sprintf("%d of %d fail the oracle check: %s", len(bad), len(taskList), strings.Join(bad, "; ")),
			Fix: "bench tasks verify (shows every check)"}
	}
	return Check{Name: Tasks, Status: Pass, Text: fmt.Sprintf("%d pass the oracle check", len(taskList))}
}
