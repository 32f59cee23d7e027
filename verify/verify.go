// Package verify is the oracle check of a task: its original repo/ fails
// its tests, its partial/ fails as the task says, its solution/ passes,
// grading's controls hold for its honest code, and the task folder is left
// unchanged. All checks many tasks at once, and Cache remembers the ones
// that passed so that a run need not check them again. Nothing of a run is
// needed to verify a task: it grades fresh copies of the task (package
// scratch) with package grade.
package verify

import (
	"context"
	"fmt"
	"strings"

	"bench/grade"
	"bench/scratch"
	"bench/tasks"
)

// Check is one oracle check of a task.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Verification is the oracle check of one task.
type Verification struct {
	Task   string  `json:"task"`
	Checks []Check `json:"checks"`
}

// OK reports whether every check held.
func (v Verification) OK() bool {
	for _, c := range v.Checks {
		if !c.OK {
			return false
		}
	}
	return len(v.Checks) > 0
}

// Names of the oracle checks, in the order Task runs them.
const (
	CheckOriginal  = "original fails"
	CheckPartial   = "partial fails as expected"
	CheckSolution  = "solution passes"
	CheckUnchanged = "folder unchanged"
)

// Task runs the oracle check of a task: the original repo/ fails its
// tests, repo/ + partial/ (where present) fails with PartialExpect in the
// output, both without being flagged as tampering (grading's controls hold
// for honest code), repo/ + solution/ passes every test, and the task
// folder is byte-identical before and after. Each run uses its own workspace.
func Task(ctx context.Context, t tasks.Task) Verification {
	v := Verification{Task: t.Name}
	before, err := t.Checksum()
	if err != nil {
		v.Checks = append(v.Checks, Check{Name: CheckUnchanged, Detail: err.Error()})
		return v
	}

	g, err := gradeOverlay(ctx, t, "")
	v.Checks = append(v.Checks, judge(CheckOriginal, g, err, func() (bool, string) {
		switch {
		case g.Tampered:
			return false, honestFlagged(g)
		case g.Result.TimedOut:
			return false, unseen(t, g)
		}
		return !g.Passed, fmt.Sprintf("%d/%d passed", g.TestsPassed, g.TestsTotal)
	}))
	if t.PartialExpect != "" {
		g, err := gradeOverlay(ctx, t, tasks.Partial)
		v.Checks = append(v.Checks, judge(CheckPartial, g, err, func() (bool, string) {
			found := strings.Contains(g.Result.Output, t.PartialExpect)
			switch {
			case g.Tampered:
				return false, honestFlagged(g)
			case g.Result.TimedOut:
				return false, unseen(t, g)
			case g.Passed:
				return false, "partial/ passes every test; expected a failure"
			case !found:
				return false, fmt.Sprintf("%d/%d passed, but the output lacks %q", g.TestsPassed, g.TestsTotal, t.PartialExpect)
			}
			return true, fmt.Sprintf("%d/%d passed; output has %q", g.TestsPassed, g.TestsTotal, t.PartialExpect)
		}))
	}
	g, err = gradeOverlay(ctx, t, tasks.Solution)
	v.Checks = append(v.Checks, judge(CheckSolution, g, err, func() (bool, string) {
		detail := fmt.Sprintf("%d/%d passed", g.TestsPassed, g.TestsTotal)
		if !g.Passed {
			if len(g.Failed) > 0 {
				detail += "; failed: " + strings.Join(g.Failed, ", ")
			}
			if g.Result.TimedOut {
				detail += "; timed out"
			}
		}
		return g.Passed, detail
	}))

	after, err := t.Checksum()
	switch {
	case err != nil:
		v.Checks = append(v.Checks, Check{Name: CheckUnchanged, Detail: err.Error()})
	case after != before:
		v.Checks = append(v.Checks, Check{Name: CheckUnchanged, Detail: "the task folder changed during the check"})
	default:
		v.Checks = append(v.Checks, Check{Name: CheckUnchanged, OK: true, Detail: before[:len("sha256:")+12]})
	}
	return v
}

// unseen says that a run meant to fail timed out: a timeout (a slow
// machine, a cold build) is not the failure the task was designed to show,
// so the check cannot pass on it.
func unseen(t tasks.Task, g grade.Result) string {
	return fmt.Sprintf("%d/%d passed, then timed out after %v: the designed failure was not seen (a loaded machine or a cold build cache can do that; run again, or raise the task's timeout)", g.TestsPassed, g.TestsTotal, t.Timeout)
}

// honestFlagged says that grading flagged honest code (the task's own
// repo/ or partial/) as tampering: its tests do something grading's
// controls cannot copy (docs/SANDBOX.md).
func honestFlagged(g grade.Result) string {
	var why []string
	for _, r := range g.Reasons {
		why = append(why, r.Code+": "+r.Detail)
	}
	return "grading flagged the task's own code as tampering (" + strings.Join(why, "; ") + ")"
}

// judge turns a grading and its error into a check.
func judge(name string, g grade.Result, err error, ok func() (bool, string)) Check {
	if err != nil {
		return Check{Name: name, Detail: err.Error()}
	}
	pass, detail := ok()
	return Check{Name: name, OK: pass, Detail: detail}
}

// gradeOverlay grades a fresh copy of repo/ with the folder sub overlaid
// ("" for none), removing the copy afterwards.
func gradeOverlay(ctx context.Context, t tasks.Task, sub string) (grade.Result, error) {
	w, err := scratch.New(t)
	if err != nil {
		return grade.Result{}, err
	}
	defer w.Remove()
	if sub != "" {
		if err := scratch.Overlay(t, w.Dir, sub); err != nil {
			return grade.Result{}, err
		}
	}
	return grade.Grade(ctx, t, w.Dir)
}
