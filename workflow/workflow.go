// Package workflow holds the fixed-workflow tracks: the lesson's five steps
// decided by code (workflow) and an evaluator-optimizer variant that is
// strict about the reply format and tries again with the new test output
// (workflow-retry).
package workflow

import (
	"context"

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
// rejected and nothing is written. A reply the server cut off at the reply
// cap is used as it is; its response event carries the stop reason "length".
func Workflow(ctx context.Context, env *track.Env) track.Outcome {
	conv := track.NewConversation(env, systemPrompt)
	if p, err := (Fix{Naive: true}).Run(ctx, conv); err != nil {
		return end(conv, p.exit(ctx, err), err)
	}
	return end(conv, record.ExitDone, nil)
}

// end closes a workflow episode: one turn per model call.
func end(conv *track.Conversation, exit record.ExitReason, err error) track.Outcome {
	out := conv.End(exit, err)
	out.Turns = out.ModelCalls
	return out
}
