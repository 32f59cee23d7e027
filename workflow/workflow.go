// Package workflow holds the fixed-workflow tracks: the lesson's five steps
// decided by code (workflow) and an evaluator-optimizer variant that is
// strict about the reply format and tries again with the new test output
// (workflow-retry).
package workflow

import (
	"context"
	"fmt"

	"bench/model"
	"bench/record"
	"bench/track"
	"bench/workspace"
)

// Workflow is the lesson's fixed workflow (named "workflow"): run the tests;
// take their normalised output and the task's source file; call the model
// once for "FILE: <path>" and the complete file in one code block; write it
// back; run the tests again.
//
// A reply without the FILE: marker is written by the naive fallback: its
// first code block, or with none the whole reply, replaces the source file.
// That fallback is deliberate (it is the lesson's slugify failure) and is
// recorded as a fallback_write event. A FILE: path outside the workspace is
// rejected and nothing is written. A reply the server cut off at the reply
// cap is used as it is; its response event carries the stop reason "length".
func Workflow(ctx context.Context, env *track.Env) track.Outcome {
	conv, stop := begin(ctx, env)
	if stop != nil {
		return *stop
	}
	resp, err := conv.Call(ctx, nil)
	if err != nil {
		return end(conv, track.ExitFor(ctx, err), err)
	}
	if err := naiveWrite(conv, env, parseReply(resp.Message.Content)); err != nil {
		return end(conv, record.ExitError, err)
	}
	if _, err := env.RunTests(ctx); err != nil {
		return end(conv, track.ExitFor(ctx, err), err)
	}
	return end(conv, record.ExitDone, nil)
}

// begin is the opening both workflows share: run the tests, then put the
// task, their normalised output and the source file in the first message.
// A non-nil outcome means the episode has already ended.
func begin(ctx context.Context, env *track.Env) (*track.Conversation, *track.Outcome) {
	conv := track.NewConversation(env, systemPrompt)
	res, err := env.RunTests(ctx)
	if err != nil {
		out := end(conv, track.ExitFor(ctx, err), err)
		return conv, &out
	}
	source, err := readSource(env)
	if err != nil {
		out := end(conv, record.ExitError, fmt.Errorf("read the task's source file %s: %w", env.Task.Source, err))
		return conv, &out
	}
	conv.Add(model.Message{Role: model.RoleUser, Content: fixPrompt(env.Task, res.Normalized, string(source))})
	return conv, nil
}

// end closes a workflow episode: one turn per model call.
func end(conv *track.Conversation, exit string, err error) track.Outcome {
	out := conv.End(exit, err)
	out.Turns = out.ModelCalls
	return out
}

// naiveWrite writes a reply the lesson's way. With a FILE: marker, the first
// code block after it (or, with none, the text after the marker) goes to the
// named path; without one, the first code block or the whole reply goes over
// the source file.
func naiveWrite(conv *track.Conversation, env *track.Env, r reply) error {
	if !r.HasMarker {
		content, what := r.Text, "the whole reply"
		if len(r.Blocks) > 0 {
			content, what = r.Blocks[0], "the first code block"
		}
		return write(conv, env, env.Task.Source, content, record.EventFallbackWrite,
			fmt.Sprintf("no FILE: line; wrote %s over %s", what, env.Task.Source))
	}
	content := r.Rest
	if len(r.AfterMark) > 0 {
		content = r.AfterMark[0]
	}
	return write(conv, env, r.Path, content, record.EventWrite, "")
}

// readSource reads the task's source file from the workspace.
func readSource(env *track.Env) ([]byte, error) {
	ws, err := workspace.Open(env.Dir)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	return ws.ReadFile(env.Task.Source)
}

// write puts content at rel inside the workspace and records kind. A path
// or file the workspace refuses (outside the workspace, a directory, a
// symbolic link, a file with other hard links, content over
// workspace.MaxFileBytes) is recorded as a reject and not written. It
// returns an error only when the file system fails.
func write(conv *track.Conversation, env *track.Env, rel, content, kind, reason string) error {
	ws, err := workspace.Open(env.Dir)
	if err != nil {
		return err
	}
	defer ws.Close()
	err = ws.WriteFile(rel, []byte(content))
	if workspace.Refused(err) {
		conv.Record(record.Event{Kind: record.EventReject, Path: rel, Reason: err.Error()})
		return nil
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	clean, _ := workspace.Clean(rel) // WriteFile has checked it
	conv.Record(record.Event{Kind: kind, Path: clean, Bytes: len(content), Reason: reason})
	return nil
}
