package cause

import (
	"fmt"

	"bench/record"
)

// toolErrors: the agent's last ToolErrorRun tool calls, or more, all failed.
func (d *deriver) toolErrors() []Cause {
	var results []record.Event
	for _, ev := range d.in.Events {
		if ev.Kind == record.EventToolResult {
			results = append(results, ev)
		}
	}
	n := 0
	for n < len(results) && results[len(results)-1-n].IsError {
		n++
	}
	if n < ToolErrorRun {
		return nil
	}
	var tools []string
	for _, ev := range results[len(results)-n:] {
		tools = append(tools, ev.Tool)
	}
	last := results[len(results)-1]
	ev := fmt.Sprintf("the last %d tool calls failed (%s); the last: %s", n, names(tools), clip(last.Result, maxPart))
	return []Cause{{Name: ToolErrors, Evidence: ev}}
}

// timeout: the episode ran past its time limit, or grading's test run
// past the task's.
func (d *deriver) timeout() []Cause {
	ep := d.in.Episode
	var out []Cause
	if ep.ExitReason == record.ExitTimeout {
		ev := "the episode ran past its time limit (--episode-timeout)"
		if ep.Error != "" {
			ev = clip(ep.Error, 2*maxPart)
		}
		out = append(out, Cause{Name: Timeout, Evidence: ev})
	}
	if ep.GradingTimedOut && out == nil { // grading inside the episode's limit: one timeout, the episode's
		out = append(out, Cause{Name: Timeout, Evidence: "grading's test run timed out: the code under test did not finish within the task's timeout"})
	}
	return out
}

// budget: the turn, try or token budget ran out.
func (d *deriver) budget() []Cause {
	ep := d.in.Episode
	switch ep.ExitReason {
	case record.ExitMaxTurns:
		if d.agent {
			return []Cause{{Name: Budget, Evidence: fmt.Sprintf("max_turns: the agent used its %s (--max-turns) without the tests passing", plural(ep.Turns, "turn", "turns"))}}
		}
		return []Cause{{Name: Budget, Evidence: fmt.Sprintf("max_turns: %s (--tries) ended without the tests passing", plural(ep.Turns, "try", "tries"))}}
	case record.ExitTokenBudget:
		spent := ep.PromptTokens + ep.CompletionTokens
		what := "tokens as the server counted them"
		if spent == 0 {
			spent, what = ep.EstPromptTokens+ep.EstCompletionTokens, "tokens by bench's estimate"
		}
		return []Cause{{Name: Budget, Evidence: fmt.Sprintf("token_budget: the episode spent %d %s and reached its token budget (--token-limit)", spent, what)}}
	}
	return nil
}
