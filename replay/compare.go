package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bench/model"
	"bench/record"
)

// compareEvent notes the fields in which a fresh event differs from the
// recorded one it stands for: every field the tools, the tests and the
// track decide, and a response's reply, token counts and stop reason. The
// time, the sequence numbers, a response's duration and retries (what the
// server and the network did) and a request's token estimate (which
// follows from its messages) are not compared.
func compareEvent(want, got record.Event) *diff {
	d := &diff{}
	value(d, "kind", want.Kind, got.Kind)
	value(d, "turn", want.Turn, got.Turn)
	value(d, "within", want.Within, got.Within)
	value(d, "tool", want.Tool, got.Tool)
	d.text("args", want.Args, got.Args)
	value(d, "is_error", want.IsError, got.IsError)
	value(d, "tests_passed", want.TestsPassed, got.TestsPassed)
	value(d, "tests_total", want.TestsTotal, got.TestsTotal)
	d.text("result", want.Result, got.Result)
	d.text("output", want.Output, got.Output)
	value(d, "path", want.Path, got.Path)
	value(d, "bytes", want.Bytes, got.Bytes)
	d.text("reason", want.Reason, got.Reason)
	d.text("error", want.Error, got.Error)
	if want.Kind == record.EventResponse || got.Kind == record.EventResponse {
		compareReply(d, want.Reply, got.Reply)
		value(d, "prompt_tokens", want.PromptTokens, got.PromptTokens)
		value(d, "completion_tokens", want.CompletionTokens, got.CompletionTokens)
		value(d, "est_completion_tokens", want.EstCompletion, got.EstCompletion)
		value(d, "stop_reason", want.StopReason, got.StopReason)
	}
	return d
}

// compareReply notes a difference in a response's reply.
func compareReply(d *diff, want, got *record.Message) {
	var w, g record.Message
	if want != nil {
		w = *want
	}
	if got != nil {
		g = *got
	}
	d.text("reply.content", w.Content, g.Content)
	d.text("reply.tool_calls", toolCallsText(w.ToolCalls), toolCallsText(g.ToolCalls))
}

// compareRequest notes the fields in which a fresh request differs from
// the recorded one, and says why the recorded reply cannot answer it
// ("" when it can): another conversation (the agent's or a tool's), new
// messages of another number, role or tool, or a tool result that changed.
// A prompt (a system or user message) that changed, or other tools
// offered, is noted and the reply served.
func compareRequest(want, got record.Event) (d *diff, stop string) {
	d = &diff{}
	value(d, "turn", want.Turn, got.Turn)
	if want.Within != got.Within {
		value(d, "within", want.Within, got.Within)
		return d, fmt.Sprintf("the recording's next call is %s, the replayed track asked %s", caller(want.Within), caller(got.Within))
	}
	value(d, "tools", strings.Join(want.Tools, ","), strings.Join(got.Tools, ","))
	if shape(want.Messages) != shape(got.Messages) {
		d.add("messages", fmt.Sprintf("%q", shape(want.Messages)), fmt.Sprintf("%q", shape(got.Messages)))
		return d, "the request's new messages differ in number, role or tool from the recorded request's: the recorded reply answers another conversation"
	}
	for i, w := range want.Messages {
		g := got.Messages[i]
		field := fmt.Sprintf("messages[%d]", i)
		d.text(field+".tool_calls", toolCallsText(w.ToolCalls), toolCallsText(g.ToolCalls))
		if w.Content == g.Content {
			continue
		}
		d.text(field+".content", w.Content, g.Content)
		if w.Role == model.RoleTool {
			stop = cmp.Or(stop, fmt.Sprintf("the result of %s changed, and the recorded next reply answers the result as it was recorded", w.ToolName))
		}
	}
	return d, stop
}

// caller names whose call a request is.
func caller(within string) string {
	if within == "" {
		return "the track's own call"
	}
	return "the call within " + within
}

// shape is the role (and tool) of each message, in order.
func shape(msgs []record.Message) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = m.Role
		if m.ToolName != "" {
			parts[i] += ":" + m.ToolName
		}
	}
	return strings.Join(parts, " ")
}

// toolCallsText is a reply's tool calls as one text: name(arguments), in order.
func toolCallsText(calls []record.ToolCall) string {
	parts := make([]string, len(calls))
	for i, tc := range calls {
		parts[i] = tc.Name + "(" + tc.Arguments + ")"
	}
	return strings.Join(parts, " ")
}

// compareEpisode notes the fields of the episode's verdict and sums in
// which the fresh episode differs from the recorded one: the grading
// (passed, the test counts, the failed tests, tampering, a grading
// timeout), how it ended (exit reason, error kind), its shape (turns, model
// calls, tool calls, the step digests, the posture) and its token counts.
// What the host, the clock and the network decide (times, retries, the
// host, the sandbox, the error text) is not compared. exit says whether to
// compare the exit reason and error kind (not when the replay stopped).
func compareEpisode(want, got record.Episode, exit bool) *diff {
	d := &diff{}
	value(d, "passed", want.Passed, got.Passed)
	value(d, "tests_passed", want.TestsPassed, got.TestsPassed)
	value(d, "tests_total", want.TestsTotal, got.TestsTotal)
	value(d, "failed_tests", sortedList(want.FailedTests), sortedList(got.FailedTests))
	value(d, "tests_tampered", want.TestsTampered, got.TestsTampered)
	value(d, "grading_timed_out", want.GradingTimedOut, got.GradingTimedOut)
	if exit {
		value(d, "exit_reason", want.ExitReason, got.ExitReason)
		value(d, "error_kind", want.ErrorKind, got.ErrorKind)
	}
	value(d, "posture", want.Posture, got.Posture)
	value(d, "turns", want.Turns, got.Turns)
	value(d, "model_calls", want.ModelCalls, got.ModelCalls)
	value(d, "tool_calls", strings.Join(want.ToolCalls, ","), strings.Join(got.ToolCalls, ","))
	value(d, "steps", strings.Join(want.Steps, ","), strings.Join(got.Steps, ","))
	value(d, "prompt_tokens", want.PromptTokens, got.PromptTokens)
	value(d, "completion_tokens", want.CompletionTokens, got.CompletionTokens)
	value(d, "est_prompt_tokens", want.EstPromptTokens, got.EstPromptTokens)
	value(d, "est_completion_tokens", want.EstCompletionTokens, got.EstCompletionTokens)
	value(d, "cut_replies", want.CutReplies, got.CutReplies)
	value(d, "workflow_calls", want.WorkflowCalls, got.WorkflowCalls)
	value(d, "workflow_tokens", want.WorkflowTokens, got.WorkflowTokens)
	value(d, "workflow_est_tokens", want.WorkflowEstTokens, got.WorkflowEstTokens)
	return d
}

// sortedList is a list of names, sorted, as one text.
func sortedList(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	return strings.Join(s, ",")
}

// summary names an event for a divergence where the other side has none.
func summary(ev record.Event) string {
	s := ev.Kind
	switch {
	case ev.Tool != "":
		s += " of " + ev.Tool
	case ev.Path != "":
		s += " of " + ev.Path
	case ev.Kind == record.EventTestRun:
		s += fmt.Sprintf(" (%d/%d passed)", ev.TestsPassed, ev.TestsTotal)
	}
	return fmt.Sprintf("%q", s)
}
