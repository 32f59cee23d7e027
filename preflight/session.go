package preflight

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"bench/model"
	"bench/record"
	"bench/runner"
	"bench/sandbox"
	"bench/testrun"
	"bench/trackfacts"
)

// ForSession makes the checks of the run s before it starts, as bench run
// and bench doctor both make them: every host and model of the run
// (Session.ServerConfigs) at once, and the local ones (python3, the
// sandbox of mode, the tasks) once meanwhile.
func ForSession(ctx context.Context, s *runner.Session, mode sandbox.Mode) Result {
	need := NeedsOf(s.Run.Tracks)
	need.ToolFree = s.ToolFreeModels()
	need.Think, need.Sandbox = s.Run.Think, mode
	return Gather(ctx, s.ServerConfigs(), need, s.Tasks)
}

// Refusal says what stops the run s, one paragraph per cause the failed
// checks name (a server that cannot be reached, a model it lacks, a model
// without tools or thinking, servers that disagree), and that nothing was
// created or changed.
func Refusal(s *runner.Session, checks []Check) string {
	var paras []string
	add := func(p string) {
		if !slices.Contains(paras, p) {
			paras = append(paras, p)
		}
	}
	local := false
	for _, c := range checks {
		if c.OK() {
			continue
		}
		if Local(c.Name) {
			local = true
			continue
		}
		add(refusalOf(s, c))
	}
	if local {
		add("The checks of this machine above failed (each says how to fix it).")
	}
	unchanged := "Nothing was created or changed."
	if s.Resumed {
		unchanged = s.Dir + " is unchanged; resume it once this is fixed, or, if the server has moved, add --host URL."
	}
	return strings.Join(append(paras, unchanged), "\n")
}

// refusalOf is the paragraph of one failed check of a model server.
func refusalOf(s *runner.Session, c Check) string {
	name, backend := s.Model.Model, s.Model.Backend
	if c.Model != "" {
		name = c.Model // the model the failed check asked about (a pool's, or --workflow-model)
	}
	switch c.Kind {
	case model.ErrUnreachable:
		how := (&model.Error{Kind: model.ErrUnreachable, Backend: backend, Host: c.Host, Model: name}).Fix()
		if backend == "" || backend == model.BackendOllama {
			how += fmt.Sprintf("; once it runs, pull the model if it is not there yet: `%s`", model.PullCommand(c.Host, name))
		}
		p := fmt.Sprintf("bench run could not reach the model server at %s: %s.", c.Host, how)
		if !s.Resumed { // a resumed run keeps its tracks
			p += " A run with --tracks oracle needs no server."
		}
		return p
	case model.ErrModelNotFound:
		return fmt.Sprintf("The model server at %s is up, but it has no model %s: %s, or choose one it has with --model.", c.Host, name,
			(&model.Error{Kind: model.ErrModelNotFound, Backend: backend, Host: c.Host, Model: name}).Fix())
	case model.ErrNoToolSupport:
		need, rest := tracksByTools(s.Run.Tracks)
		return fmt.Sprintf("Model %s on %s cannot call tools, which the %s track needs: run without it with --tracks %s, or choose a model that supports tools with --model.",
			name, c.Host, strings.Join(need, " and "), strings.Join(rest, ","))
	case model.ErrNoThinking:
		return fmt.Sprintf("Model %s cannot think, which --think asks for: drop --think, or choose a model that can with --model.", name)
	case model.ErrModelMismatch:
		return "The servers of the pool do not serve the model the same (see above): make them agree, or run on one of them with --host."
	}
	return "bench run could not use the model server at " + c.Host + " (the check above says what failed and how to fix it)."
}

// tracksByTools splits the run's tracks into those that offer the model
// tools and the others; with no others, the others are the workflow.
func tracksByTools(tracks []string) (tools, rest []string) {
	for _, t := range tracks {
		if runner.UsesTools(t) {
			tools = append(tools, t)
		} else {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 {
		rest = []string{trackfacts.Workflow}
	}
	return tools, rest
}

// Ready makes the checks of the run s (ForSession) and returns what the
// servers said; on a failure it writes the checks to errw, then what
// stops the run (Refusal), and returns false. Nothing has been created.
func Ready(ctx context.Context, errw io.Writer, s *runner.Session, mode sandbox.Mode) ([]runner.Inspection, bool) {
	res := ForSession(ctx, s, mode)
	if interrupted(ctx, errw) {
		return nil, false
	}
	if OK(res.Checks) {
		return res.Servers, true
	}
	for _, c := range res.Checks {
		fmt.Fprintln(errw, c)
	}
	fmt.Fprintln(errw, Refusal(s, res.Checks))
	return nil, false
}

// UseSandbox puts every test run of this process in the sandbox that mode
// asks for, records its layers on the run s (unless it is resumed), and
// says once on errw which layers this machine lacks.
func UseSandbox(errw io.Writer, s *runner.Session, mode sandbox.Mode) error {
	cfg := sandbox.Config{Mode: mode}
	layers, err := sandbox.Plan(cfg)
	if err != nil {
		return err
	}
	testrun.SetSandbox(cfg)
	if !s.Resumed {
		s.Run.Sandbox = &record.Sandbox{FS: layers.FS, Net: layers.Net, PID: layers.PID}
	}
	if missing := layers.Missing(); mode != sandbox.Off && len(missing) > 0 {
		fmt.Fprintf(errw, "warning: the sandbox lacks %s on this machine (%s); bench doctor says how to add it, --sandbox on refuses to run without it\n", strings.Join(missing, ", "), layers)
	}
	return nil
}

// ReplayReady makes the checks of this machine the replay rr needs
// (python3, the sandbox of mode, the tasks; no model server), then puts
// the test runs in the sandbox and records it on rr's run (UseSandbox). On
// a failed check it writes the checks and what to do to errw, and returns
// false: nothing was created.
func ReplayReady(ctx context.Context, errw io.Writer, rr *runner.ReplayRun, mode sandbox.Mode) (bool, error) {
	res := Gather(ctx, nil, Needs{Tracks: slices.Clone(rr.Run.Tracks), Sandbox: mode}, rr.Tasks)
	if interrupted(ctx, errw) {
		return false, nil
	}
	if !OK(res.Checks) {
		for _, ch := range res.Checks {
			fmt.Fprintln(errw, ch)
		}
		fmt.Fprintln(errw, "The checks of this machine above failed (each says how to fix it). Nothing was created or changed.")
		return false, nil
	}
	s := &runner.Session{Dir: rr.Dir, Run: rr.Run, Tasks: rr.Tasks}
	if err := UseSandbox(errw, s, mode); err != nil {
		return false, err
	}
	rr.Run.Sandbox = s.Run.Sandbox
	return true, nil
}

// interrupted says on errw, when ctx was cancelled (an interrupt) while
// the checks ran, that nothing was created, and reports it: the checks it
// cut short failed for the interrupt, not for what they check.
func interrupted(ctx context.Context, errw io.Writer) bool {
	if ctx.Err() == nil {
		return false
	}
	fmt.Fprintln(errw, "interrupted during the checks before the run: nothing was created or changed.")
	return true
}
