// Package hybrid is the hybrid track: the agent loop with one more tool,
// run_workflow, which runs the lesson's fixed workflow (tests, one model
// call, write, rerun) on the agent's own workspace. The parts whose shape
// is fixed stay code; the model decides whether to call them, on which
// file, with what note, and what to do with the result. Beside the
// workflow and agent tracks it measures whether the agent, given the
// workflow as a tool, delegates, and what delegating costs and buys.
package hybrid

import (
	"context"

	"bench/trackfacts"

	"bench/loop"
	"bench/track"
	"bench/workflow"
)

// ToolName is the name of the workflow tool; the events of its runs are
// marked with it (record.Event.Within).
const ToolName = trackfacts.RunWorkflow

// Config is a hybrid track. The zero Config is the registered one.
type Config struct {
	// Naive lets the workflow tool write a reply without the FILE: line
	// the lesson's way (its first code block, or the whole reply, over the
	// file); by default such a reply is rejected and nothing is written.
	Naive bool
}

// Hybrid is the hybrid track (named "hybrid" on the command line): the
// agent loop, its five tools and run_workflow. The workflow's model call
// goes to env.WorkflowClient (env.Model when nil) and counts in the
// outcome's calls and usage once, and apart in WorkflowCalls and
// WorkflowUsage.
func Hybrid(ctx context.Context, env *track.Env) track.Outcome { return Config{}.Run(ctx, env) }

// Run runs one episode of the hybrid track c.
func (c Config) Run(ctx context.Context, env *track.Env) track.Outcome {
	return c.spec().Run(ctx, env)
}

// Prompts returns the fixed text the hybrid track sends: the agent's, with
// the words on run_workflow and its schema; the request of the workflow
// pass it runs; and the fixed wording of the tool's result.
func Prompts() string { return Config{}.Prompts() }

// Prompts returns the fixed text of the hybrid track c (see Prompts).
func (c Config) Prompts() string {
	return c.spec().Prompts() + "\n" + workflow.PassPrompts() + "\n" + resultShapes()
}

// spec is the loop's description of the track.
func (c Config) spec() loop.Spec {
	return loop.Spec{Tools: []loop.Tool{c.tool()}, About: about(c.Naive)}
}
