package workflow

import (
	"context"
	"fmt"
	"path/filepath"

	"bench/workflow/replytext"

	"bench/model"
	"bench/record"
	"bench/track"
	"bench/workspace"
)

// Retry is the evaluator-optimizer workflow (named "workflow-retry"). It asks
// as Workflow does, but a reply without the FILE: line, naming another file
// than the task's source, or without exactly one code block is rejected:
// nothing is written, a reject event names the problem, and the model is
// asked again, told what was wrong. A well-formed reply is written and the
// tests rerun; their exit code is the evaluator. Up to env.Tries attempts
// (record.DefaultTries when 0), each failed one followed by the new test output.
// It ends with done when the tests pass, and with max_turns when every try
// is spent without that.
func Retry(ctx context.Context, env *track.Env) track.Outcome {
	tries := env.Tries
	if tries <= 0 {
		tries = record.DefaultTries
	}
	conv := track.NewConversation(env, systemPrompt)
	if p, err := (Fix{}).open(ctx, conv); err != nil {
		return end(conv, p.exit(ctx, err), err)
	}
	for attempt := 1; attempt <= tries; attempt++ {
		resp, err := conv.Call(ctx, nil)
		if err != nil {
			return end(conv, track.ExitFor(ctx, err), err)
		}
		r := replytext.Parse(resp.Message.Content)
		content, problem := strict(env.Task.Source, r, track.IsCut(resp))
		if problem != "" {
			conv.Record(record.Event{Kind: record.EventReject, Path: r.Path, Reason: problem})
			if attempt < tries {
				conv.Add(model.Message{Role: model.RoleUser, Content: rejectPrompt(env.Task.Source, problem)})
			}
			continue
		}
		if err := write(conv, env.Task.Source, content, record.EventWrite, "", &Pass{}); err != nil {
			return end(conv, record.ExitError, err)
		}
		res, err := conv.RunTests(ctx)
		if err != nil {
			return end(conv, track.ExitFor(ctx, err), err)
		}
		if res.ExitCode == 0 && !res.TimedOut {
			return end(conv, record.ExitDone, nil)
		}
		if attempt < tries {
			conv.Add(model.Message{Role: model.RoleUser, Content: againPrompt(env.Task.Source, res.Normalized)})
		}
	}
	return end(conv, record.ExitMaxTurns, nil)
}

// strict checks a reply against the format, for the file to fix, and
// returns the content to write, or the problem that makes it unusable; cut
// says the server cut the reply off at the reply cap.
func strict(file string, r replytext.Reply, cut bool) (content, problem string) {
	if !r.HasMarker {
		return "", "the reply has no \"FILE: <path>\" line"
	}
	if _, err := workspace.Clean(r.Path); err != nil {
		return "", fmt.Sprintf("the FILE: path %q is not allowed: %v", r.Path, err)
	}
	if filepath.Clean(r.Path) != filepath.Clean(file) {
		return "", fmt.Sprintf("the FILE: line names %s, but the file to fix is %s", r.Path, file)
	}
	if r.Unclosed && cut {
		return "", "the reply was cut off at the reply cap inside the code block; send only the FILE: line and the complete file, with no explanation"
	}
	if r.Unclosed {
		return "", "the code block has no closing fence; the reply looks cut off"
	}
	if len(r.Blocks) != 1 {
		return "", fmt.Sprintf("the reply has %d code blocks; it must have exactly one, holding the complete file", len(r.Blocks))
	}
	return r.Blocks[0], ""
}
