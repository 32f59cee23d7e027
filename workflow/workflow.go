// Package workflow holds the fixed-workflow tracks: the lesson's five steps
// decided by code (workflow) and an evaluator-optimizer variant that is
// strict about the reply format and tries again with the new test output
// (workflow-retry).
package workflow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"bench/loop"
	"bench/model"
	"bench/record"
	"bench/track"
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
// rejected and nothing is written.
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
	source, err := os.ReadFile(filepath.Join(env.Dir, env.Task.Source))
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

// write puts content at rel inside the workspace and records kind; a path
// that leads outside the workspace or names a directory, or content over
// loop.MaxFileBytes, is recorded as a reject and not written.
// It returns an error only when the file system fails.
func write(conv *track.Conversation, env *track.Env, rel, content, kind, reason string) error {
	p, err := loop.Confine(env.Dir, rel)
	if err == nil {
		if fi, serr := os.Stat(p); serr == nil && fi.IsDir() {
			err = fmt.Errorf("%s is a directory", rel)
		}
	}
	if err == nil && len(content) > loop.MaxFileBytes {
		err = fmt.Errorf("the content is %d bytes; the most a file may hold is %d", len(content), loop.MaxFileBytes)
	}
	if err != nil {
		conv.Record(record.Event{Kind: record.EventReject, Path: rel, Reason: err.Error()})
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	conv.Record(record.Event{Kind: kind, Path: filepath.ToSlash(filepath.Clean(rel)), Bytes: len(content), Reason: reason})
	return nil
}
