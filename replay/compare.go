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
	d.value("kind", want.Kind, got.Kind)
	d.value("turn", want.Turn, got.Turn)
	d.value("within", want.Within, got.Within)
	d.value("tool", want.Tool, got.Tool)
	d.text("args", want.Args, got.Args)
	d.value("is_error", want.IsError, got.IsError)
	d.value("tests_passed", want.TestsPassed, got.TestsPassed)
	d.value("tests_total", want.TestsTotal, got.TestsTotal)
	d.text("result", want.Result, got.Result)
	d.text("output", want.Output, got.Output)
	d.value("path", want.Path, got.Path)
	d.value("bytes", want.Bytes, got.Bytes)
	d.text("reason", want.Reason, got.Reason)
	d.text("error", want.Error, got.Error)
	if want.Kind == record.EventResponse || got.Kind == record.EventResponse {
		compareReply(d, want.Reply, got.Reply)
		d.value("prompt_tokens", want.PromptTokens, got.PromptTokens)
		d.value("completion_tokens", want.CompletionTokens, got.CompletionTokens)
		d.value("est_completion_tokens", want.EstCompletion, got.EstCompletion)
		d.value("stop_reason", want.StopReason, got.StopReason)
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
	d.value("turn", want.Turn, got.Turn)
	if want.Within != got.Within {
		d.value("within", want.Within, got.Within)
		return d, fmt.Sprintf("the recording's next call is %s, the replayed track asked %s", caller(want.Within), caller(got.Within))
	}
	d.value("tools", strings.Join(want.Tools, ","), strings.Join(got.Tools, ","))
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
	d.value("passed", want.Passed, got.Passed)
	d.value("tests_passed", want.TestsPassed, got.TestsPassed)
	d.value("tests_total", want.TestsTotal, got.TestsTotal)
	d.value("failed_tests", sortedList(want.FailedTests), sortedList(got.FailedTests))
	d.value("tests_tampered", want.TestsTampered, got.TestsTampered)
	d.value("grading_timed_out", want.GradingTimedOut, got.GradingTimedOut)
	if exit {
		d.value("exit_reason", want.ExitReason, got.ExitReason)
		d.value("error_kind", want.ErrorKind, got.ErrorKind)
	}
	d.value("posture", want.Posture, got.Posture)
	d.value("turns", want.Turns, got.Turns)
	d.value("model_calls", want.ModelCalls, got.ModelCalls)
	d.value("tool_calls", strings.Join(want.ToolCalls, ","), strings.Join(got.ToolCalls, ","))
	d.value("steps", strings.Join(want.Steps, ","), strings.Join(got.Steps, ","))
	d.value("prompt_tokens", want.PromptTokens, got.PromptTokens)
	d.value("completion_tokens", want.CompletionTokens, got.CompletionTokens)
	d.value("est_prompt_tokens", want.EstPromptTokens, got.EstPromptTokens)
	d.value("est_completion_tokens", want.EstCompletionTokens, got.EstCompletionTokens)
	d.value("cut_replies", want.CutReplies, got.CutReplies)
	d.value("workflow_calls", want.WorkflowCalls, got.WorkflowCalls)
	d.value("workflow_tokens", want.WorkflowTokens, got.WorkflowTokens)
	d.value("workflow_est_tokens", want.WorkflowEstTokens, got.WorkflowEstTokens)
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
