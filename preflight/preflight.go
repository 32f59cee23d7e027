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
	"sync"

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
	Digest string // the model check's: the model's full digest (Identity: its weights'), which Text shortens to 12 hex digits
	// Kind is, for a failed check of a model server, what failed as one of
	// model's Err* kinds (ErrUnreachable, ErrModelNotFound, ErrNoToolSupport,
	// ErrNoThinking, …), so that a front end can word its refusal by cause;
	// nil otherwise.
	Kind  error
	Host  string // the server a server check is about
	Model string // the model a server check is about
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
	// ToolFree are models asked without tools whatever the tracks (the
	// hybrid's --workflow-model): their tool support is not checked.
	ToolFree []string
	Think    bool // the run asks the model to think (--think)
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

// Result is what the checks before a run found: the checks, in order,
// and what each server said (in servers' order; none when no track calls
// a model), for runner.Session.ConnectInspected, so that a run asks each
// server once.
type Result struct {
	Checks  []Check
	Servers []runner.Inspection
}

// Gather is Run, also returning what the servers said.
func Gather(ctx context.Context, servers []model.Config, need Needs, taskList []tasks.Task) Result {
	var res Result
	var wg sync.WaitGroup
	if need.Model {
		wg.Go(func() { res.Servers = runner.Inspect(ctx, servers) })
	}
	local := []Check{pythonCheck(ctx)}
	local = append(local, sandboxChecks(need.Sandbox)...)
	if len(taskList) > 0 {
		local = append(local, tasksCheck(ctx, taskList))
	}
	wg.Wait()
	if need.Model {
		res.Checks = modelServers(res.Servers, need)
	} else {
		res.Checks = []Check{{Name: Server, Status: Skipped, Text: notNeeded(need.Tracks, "calls no model", "calls a model")}}
	}
	res.Checks = append(res.Checks, local...)
	return res
}

// modelServers words what every server said, then whether the hosts of a
// model agree on it; a host that cannot be reached is named once.
func modelServers(ins []runner.Inspection, need Needs) []Check {
	var checks []Check
	down := map[string]bool{}
	seen := map[string][]model.ServerInfo{} // model name → what each host that has it said
	var order []string
	for _, in := range ins {
		cfg := in.Config
		if down[cfg.Host] {
			continue
		}
		sc := serverChecks(in, need)
		down[cfg.Host] = sc[0].Name == Server && !sc[0].OK()
		checks = append(checks, sc...)
		if in.Err == nil && in.Info.HasModel {
			if _, ok := seen[cfg.Model]; !ok {
				order = append(order, cfg.Model)
			}
			seen[cfg.Model] = append(seen[cfg.Model], in.Info)
		}
	}
	for _, name := range order {
		if c, ok := sameModelCheck(seen[name]); ok {
			checks = append(checks, c)
		}
	}
	return checks
}

// sameModelCheck says whether the hosts that serve one model serve it the
// same; ok is false for a model on one host, which has nothing to agree with.
func sameModelCheck(infos []model.ServerInfo) (Check, bool) {
	if len(infos) < 2 {
		return Check{}, false
	}
	for _, info := range infos[1:] {
		if err := model.SameModel(infos[0], info); err != nil {
			return Check{Name: Model, Status: Fail, Text: err.Error(), Kind: model.ErrModelMismatch}, true
		}
	}
	t := fmt.Sprintf("%s is the same on all %d hosts", infos[0].Model, len(infos))
	if id := infos[0].Identity(); id != "" {
		t += " (" + model.ShortDigest(id) + ")"
	}
	return Check{Name: Model, Status: Pass, Text: t, Digest: infos[0].Identity()}, true
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
