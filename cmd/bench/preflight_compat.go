// This file keeps run.go's view of the preflight (needs, check, preflight)
// while run.go is being changed elsewhere. Once run.go calls package
// preflight itself (pf.Run with pf.NeedsOf(s.run.Tracks)), it goes, and the
// import of bench/preflight can drop its alias.

package main

import (
	"context"

	pf "bench/preflight"

	"bench/model"
	"bench/tasks"
)

// needs says what of the model server a run will use.
type needs struct {
	model bool // some track calls the model
	tools bool // some track offers it tools
}

// check is a pf.Check with OK as a field, as run.go reads it.
type check struct {
	pf.Check
	OK bool
}

// The names run.go tells apart from the server's checks.
const (
	checkPython = pf.Python
	checkTasks  = pf.Tasks
)

// preflight runs pf.Run for need; ok is true when no check failed.
func preflight(ctx context.Context, cfg model.Config, need needs, taskList []tasks.Task) ([]check, bool) {
	checks := pf.Run(ctx, cfg, pf.Needs{Model: need.model, Tools: need.tools}, taskList)
	out := make([]check, len(checks))
	for i, c := range checks {
		out[i] = check{Check: c, OK: c.OK()}
	}
	return out, pf.OK(checks)
}
