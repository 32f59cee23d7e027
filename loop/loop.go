// Package loop is the agent track: a model that chooses its next step with
// tools, one call at a time, until it answers without a tool call or a
// budget stops it.
//
// The loop itself only schedules: the prompt text lives in prompts.go, the
// tools in tools.go, files.go and runtests.go, confined file access in
// package workspace, and the message history and its trajectory events in
// track.Conversation. A Spec builds another agent track on the loop, with
// tools of its own beside the five (the hybrid track's run_workflow).
package loop

import (
	"context"
	"fmt"

	"bench/model"
	"bench/record"
	"bench/track"
	"bench/workspace"
)

// DefaultMaxToolCalls is the most tool calls run from one reply; the calls
// past it get an error result each.
const DefaultMaxToolCalls = 16

// Agent is the agent track (named "agent" on the command line).
//
// Each turn calls the model with the tools. If the reply asks for tools,
// they run one at a time, in order, and each result is appended as a tool
// message; a tool failure is a result, never the end of the loop. At most
// DefaultMaxToolCalls calls of one reply run: each call past that is
// recorded (and listed in the outcome's ToolCalls) with an error result
// saying it was not run. A reply that the server cut off at the reply
// cap without a tool call is not an answer: the model is told and the loop
// goes on (it costs a turn). The loop stops with done when a reply asks for
// no tool; with max_turns after one last call without tools once
// env.MaxTurns turns are spent; with token_budget once the tokens spent
// reach env.TokenLimit (see track.Conversation.Spent); with interrupted when ctx is
// cancelled; with error when the model or the workspace fails.
func Agent(ctx context.Context, env *track.Env) track.Outcome { return Spec{}.Run(ctx, env) }

// Run is an agent track with spec's tools beside the agent's five, and
// spec's words on them in the system prompt; it runs as Agent does. A
// tool that returns an error wrapped by Stop ends the episode as a failed
// model call does; the token budget counts the model calls a tool makes.
func (spec Spec) Run(ctx context.Context, env *track.Env) track.Outcome {
	maxTurns := env.MaxTurns
	if maxTurns <= 0 {
		maxTurns = record.DefaultMaxTurns
	}
	tools, maxCalls := newRegistry(spec.Tools), maxToolCalls(env)
	specs := tools.specs()
	conv := track.NewConversation(env, systemPrompt(spec.About, env.Guidance, env.Snapshot))
	conv.Add(model.Message{Role: model.RoleUser, Content: taskPrompt(env.Task)})

	var calls []string
	turns := 0
	end := func(exit record.ExitReason, err error) track.Outcome {
		out := conv.End(exit, err)
		out.Turns, out.ToolCalls = turns, calls
		return out
	}
	ws, err := workspace.Open(env.Dir)
	if err != nil {
		return end(record.ExitError, err)
	}
	defer ws.Close()
	s := &session{env: env, ws: ws, conv: conv}
	for {
		if err := ctx.Err(); err != nil {
			return end(record.ExitInterrupted, err)
		}
		final := turns >= maxTurns
		offer := specs
		if final {
			conv.Add(model.Message{Role: model.RoleUser, Content: finalPrompt})
			offer = nil
		}
		resp, err := conv.Call(ctx, offer)
		if err != nil {
			return end(track.ExitFor(ctx, err), err)
		}
		if !final {
			turns++
		}
		switch {
		case overBudget(env, conv):
			return end(record.ExitTokenBudget, nil)
		case final:
			return end(record.ExitMaxTurns, nil)
		case len(resp.Message.ToolCalls) == 0 && track.IsCut(resp):
			conv.Add(model.Message{Role: model.RoleUser, Content: cutPrompt(env.Options.MaxReplyTokens)})
			continue
		case len(resp.Message.ToolCalls) == 0:
			return end(record.ExitDone, nil)
		}
		for i, tc := range resp.Message.ToolCalls {
			calls = append(calls, tc.Name)
			conv.Record(record.Event{Kind: record.EventToolCall, Tool: tc.Name, Args: tc.Arguments})
			text, isErr, stop := skipped(i, len(resp.Message.ToolCalls), maxCalls), true, error(nil)
			if i < maxCalls {
				text, isErr, stop = tools.call(ctx, s, tc)
			}
			conv.Record(record.Event{Kind: record.EventToolResult, Tool: tc.Name, Result: text, IsError: isErr})
			conv.Add(model.Message{Role: model.RoleTool, Content: text, ToolName: tc.Name, ToolCallID: tc.ID})
			if stop != nil {
				return end(track.ExitFor(ctx, stop), stop)
			}
			if err := ctx.Err(); err != nil {
				return end(record.ExitInterrupted, err)
			}
		}
		if overBudget(env, conv) { // a tool's own model calls count too
			return end(record.ExitTokenBudget, nil)
		}
	}
}

// overBudget reports whether the episode has spent its token budget
// (env.TokenLimit; 0 is none), the calls of its tools included.
func overBudget(env *track.Env, conv *track.Conversation) bool {
	return env.TokenLimit > 0 && conv.Spent() >= env.TokenLimit
}

// skipped is the result of the i-th (from 0) of n tool calls of one reply
// when it is past the cap of max calls.
func skipped(i, n, max int) string {
	return fmt.Sprintf("error: not run: at most %d tool calls are run from one reply, and this was call %d of %d; ask for it again in your next reply if you still need it",
		max, i+1, n)
}

// maxToolCalls is env's cap on the tool calls run from one reply.
func maxToolCalls(env *track.Env) int {
	if env.MaxToolCalls > 0 {
		return env.MaxToolCalls
	}
	return DefaultMaxToolCalls
}
