// Package preflight holds the checks a run needs before it starts: the
// model server (reachable, version, model present, tool support), the
// interpreter the tasks' tests run with, and the oracle check of every task.
// It returns the checks as data, so that `bench doctor`, `bench run`, a test
// or another front end can run them and print them as it likes.
package preflight

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"bench/model"
	"bench/runner"
	"bench/sandbox"
	"bench/tasks"
)

// Names of the checks, in the order they run.
const (
	Server  = "server"
	Version = "version"
	Model   = "model"
	Tools   = "tools"
	Think   = "think"
	Sandbox = "sandbox"
	Python  = "python3"
	Tasks   = "tasks"
)

// Status is the outcome of one check.
type Status int

// The outcomes of a check.
const (
	Pass    Status = iota // the check holds
	Fail                  // the check fails: a run cannot start
	Skipped               // the tracks to run do not need it
)

// Mark is the one-character sign of the status: ✓, ✗ or -.
func (s Status) Mark() string {
	switch s {
	case Pass:
		return "✓"
	case Fail:
		return "✗"
	}
	return "-"
}

// String names the status: "pass", "fail" or "skipped".
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	}
	return "skipped"
}

// Check is one line of the preflight: what was checked, its outcome, a line
// that says what was found, and, when it fails and the fix is not already in
// Text (the model package's errors carry their own), the command that fixes it.
type Check struct {
	Name   string
	Status Status
	Text   string
	Fix    string
	Digest string // the model check's: the model's full digest, which Text shortens to 12 hex digits
}

// OK reports whether the check does not stop a run (it passed or was skipped).
func (c Check) OK() bool { return c.Status != Fail }

// String renders the check as one line: its mark, name, text and fix.
func (c Check) String() string {
	s := fmt.Sprintf("%s %-8s %s", c.Status.Mark(), c.Name, c.Text)
	if c.Status == Fail && c.Fix != "" {
		s += " — fix: " + c.Fix
	}
	return s
}

// Needs says what of the model server the tracks of a run use.
type Needs struct {
	Tracks []string // the track words, for the text of skipped checks
	Model  bool     // some track calls the model
	Tools  bool     // some track offers the model tools
	Think  bool     // the run asks the model to think (--think)
	// Sandbox is the run's --sandbox: "on" fails a check for each missing
	// layer, "auto" shows it with its fix, "off" skips the checks.
	Sandbox sandbox.Mode
}

// NeedsOf returns what the named tracks need, from the runner's registry.
func NeedsOf(tracks []string) Needs {
	return Needs{
		Tracks: slices.Clone(tracks),
		Model:  slices.ContainsFunc(tracks, runner.NeedsModel),
		Tools:  slices.ContainsFunc(tracks, runner.UsesTools),
	}
}

// All is what every track together needs: the doctor's default.
func All() Needs { return NeedsOf(runner.TrackWords()) }

// Run makes the checks need calls for, in order: the model server's of
// each of servers (model.Servers: each host and model of a run) when a
// track calls the model (tool support only when one uses tools; a host that
// cannot be reached named once), then once python3, the sandbox and the
// oracle check of every task in taskList (none when it is empty).
func Run(ctx context.Context, servers []model.Config, need Needs, taskList []tasks.Task) []Check {
	var checks []Check
	if need.Model {
		down := map[string]bool{}
		for _, cfg := range servers {
			if down[cfg.Host] {
				continue
			}
			sc := serverChecks(ctx, cfg, need)
			down[cfg.Host] = sc[0].Name == Server && !sc[0].OK()
			checks = append(checks, sc...)
		}
	} else {
		checks = append(checks, Check{Name: Server, Status: Skipped, Text: notNeeded(need.Tracks, "calls no model", "calls a model")})
	}
	checks = append(checks, pythonCheck(ctx))
	checks = append(checks, sandboxChecks(need.Sandbox)...)
	if len(taskList) > 0 {
		checks = append(checks, tasksCheck(ctx, taskList))
	}
	return checks
}

// OK reports whether no check failed.
func OK(checks []Check) bool {
	return !slices.ContainsFunc(checks, func(c Check) bool { return !c.OK() })
}

// Failed returns the names of the checks that failed, in order.
func Failed(checks []Check) []string {
	var names []string
	for _, c := range checks {
		if !c.OK() {
			names = append(names, c.Name)
		}
	}
	return names
}

// ServerFailed reports whether a check of the model server failed (rather
// than python3 or the tasks).
func ServerFailed(checks []Check) bool {
	return slices.ContainsFunc(checks, func(c Check) bool {
		return !c.OK() && !Local(c.Name)
	})
}

// notNeeded is the text of a skipped check: "not needed: --tracks oracle
// calls no model", or, when the tracks are not known, "not needed: no
// track calls a model".
func notNeeded(tracks []string, none, any string) string {
	if len(tracks) == 0 {
		return "not needed: no track " + any
	}
	return "not needed: --tracks " + strings.Join(tracks, ",") + " " + none
}

// Local reports whether the named check is about this machine (python3, the
// sandbox, the tasks) rather than a model server.
func Local(name string) bool { return name == Python || name == Tasks || name == Sandbox }
