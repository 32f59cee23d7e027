package workflow

import (
	"cmp"
	"context"
	"fmt"

	"bench/workflow/replytext"

	"bench/model"
	"bench/record"
	"bench/testrun"
	"bench/track"
	"bench/workspace"
)

// Fix is one pass of the lesson's workflow over one file of the workspace:
// run the tests; send their output and the file in one request; write the
// file the reply holds back; run the tests again. The workflow track is one
// pass over the task's source file; the hybrid agent runs passes as its
// run_workflow tool.
type Fix struct {
	File string // the file to fix, relative to the workspace; "" is the task's source file
	Note string // added to the request when not blank (the hybrid agent's note)
	// Naive writes a reply the lesson's way (see naiveWrite): without the
	// FILE: line, its first code block or the whole reply replaces the
	// file. Without Naive the reply is read strictly (see strict): one that
	// breaks the format is rejected, and nothing is written.
	Naive bool
}

// Stages of a pass, where Pass.Stage says it stopped on an error.
const (
	StageTests = "tests" // the first test run
	StageRead  = "read"  // reading the file to fix
	StageCall  = "call"  // the model call
	StageWrite = "write" // writing the reply back (a file-system failure; a refused path is a reject)
	StageRerun = "rerun" // the second test run
)

// Pass is what one pass did.
type Pass struct {
	File     string         // the file it was asked to fix
	Before   testrun.Result // the tests before the model was asked
	Reply    string         // the model's reply
	Wrote    string         // the path written, cleaned; "" when nothing was
	Content  string         // what was written there
	Fallback bool           // the naive fallback wrote it (no FILE: line)
	Rejected string         // why nothing was written, when nothing was
	After    testrun.Result // the tests after the write (when Reran)
	Reran    bool           // the tests were run again
	Stage    string         // where the pass stopped on an error; "" when it ran to the end
}

// Run runs the pass in conv, the episode's conversation (the workflow
// track) or a side conversation of it (the hybrid's tool), whose system
// prompt is SystemPrompt. Every step is recorded through conv. The tests
// are run again whether or not anything was written: the pass has a fixed
// shape. It returns an error, and says in Pass.Stage which step failed,
// when a test run, the model call or the file system fails, or ctx ends.
func (f Fix) Run(ctx context.Context, conv *track.Conversation) (Pass, error) {
	p, err := f.open(ctx, conv)
	if err != nil {
		return p, err
	}
	resp, err := conv.Call(ctx, nil)
	if err != nil {
		p.Stage = StageCall
		return p, err
	}
	p.Reply = resp.Message.Content
	r := replytext.Parse(p.Reply)
	if f.Naive {
		err = naiveWrite(conv, p.File, r, &p)
	} else {
		err = strictWrite(conv, p.File, r, track.IsCut(resp), &p)
	}
	if err != nil {
		p.Stage = StageWrite
		return p, err
	}
	if p.After, err = conv.RunTests(ctx); err != nil {
		p.Stage = StageRerun
		return p, err
	}
	p.Reran = true
	return p, nil
}

// open runs the steps before the model call: the tests, then the task,
// their normalised output, the file to fix and the note as the next user
// message of conv.
func (f Fix) open(ctx context.Context, conv *track.Conversation) (Pass, error) {
	env := conv.Env()
	p := Pass{File: cmp.Or(f.File, env.Task.Source)}
	res, err := conv.RunTests(ctx)
	p.Before = res
	if err != nil {
		p.Stage = StageTests
		return p, err
	}
	source, err := readFile(env, p.File)
	if err != nil {
		p.Stage = StageRead
		what := "the file to fix"
		if p.File == env.Task.Source {
			what = "the task's source file"
		}
		return p, fmt.Errorf("read %s %s: %w", what, p.File, err)
	}
	conv.Add(model.Message{Role: model.RoleUser, Content: fixPrompt(env.Task, p.File, res.Normalized, string(source), f.Note)})
	return p, nil
}

// exit is the exit reason of a workflow track that stopped on err in
// the pass's stage: a failed file system is an error; a failed test run or
// model call is an interrupt when ctx ended, else an error.
func (p Pass) exit(ctx context.Context, err error) record.ExitReason {
	if p.Stage == StageRead || p.Stage == StageWrite {
		return record.ExitError
	}
	return track.ExitFor(ctx, err)
}

// naiveWrite writes a reply the lesson's way. With a FILE: marker, the first
// code block after it (or, with none, the text after the marker) goes to the
// named path; without one, the first code block or the whole reply goes over
// file.
func naiveWrite(conv *track.Conversation, file string, r replytext.Reply, p *Pass) error {
	if !r.HasMarker {
		content, what := r.Text, "the whole reply"
		if len(r.Blocks) > 0 {
			content, what = r.Blocks[0], "the first code block"
		}
		p.Fallback = true
		return write(conv, file, content, record.EventFallbackWrite,
			fmt.Sprintf("no FILE: line; wrote %s over %s", what, file), p)
	}
	content := r.Rest()
	if len(r.AfterMark) > 0 {
		content = r.AfterMark[0]
	}
	return write(conv, r.Path, content, record.EventWrite, "", p)
}

// strictWrite writes a reply that keeps the format strictly (see strict)
// over file, and records a reject naming the problem of one that does not.
func strictWrite(conv *track.Conversation, file string, r replytext.Reply, cut bool, p *Pass) error {
	content, problem := strict(file, r, cut)
	if problem != "" {
		conv.Record(record.Event{Kind: record.EventReject, Path: r.Path, Reason: problem})
		p.Rejected = problem
		return nil
	}
	return write(conv, file, content, record.EventWrite, "", p)
}

// readFile reads a file of the workspace.
func readFile(env *track.Env, rel string) ([]byte, error) {
	ws, err := workspace.Open(env.Dir)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	return ws.ReadFile(rel)
}

// write puts content at rel inside the workspace and records kind. A path
// or file the workspace refuses (outside the workspace, a directory, a
// symbolic link, a file with other hard links, content over
// workspace.MaxFileBytes) is recorded as a reject, not written, and its
// reason kept in p.Rejected. It returns an error only when the file
// system fails.
func write(conv *track.Conversation, rel, content, kind, reason string, p *Pass) error {
	ws, err := workspace.Open(conv.Env().Dir)
	if err != nil {
		return err
	}
	defer ws.Close()
	err = ws.WriteFile(rel, []byte(content))
	if workspace.Refused(err) {
		conv.Record(record.Event{Kind: record.EventReject, Path: rel, Reason: err.Error()})
		p.Rejected, p.Fallback = err.Error(), false
		return nil
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	clean, _ := workspace.Clean(rel) // WriteFile has checked it
	conv.Record(record.Event{Kind: kind, Path: clean, Bytes: len(content), Reason: reason})
	p.Wrote, p.Content = clean, content
	return nil
}
