package workflow

import (
	"context"
	"sync"

	"bench/model"
	"bench/results"
)

// fakeRecorder keeps the events of an episode in memory.
type fakeRecorder struct {
	mu     sync.Mutex
	events []results.Event
}

func (r *fakeRecorder) Record(ev results.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

// of returns the events of one kind, in order.
func (r *fakeRecorder) of(kind string) []results.Event {
	var out []results.Event
	for _, ev := range r.events {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// kinds returns the kind of every event, in order.
func (r *fakeRecorder) kinds() []string {
	var out []string
	for _, ev := range r.events {
		out = append(out, ev.Kind)
	}
	return out
}

// fakeChatter replays canned replies, one per call, and keeps every request.
// When the script runs out, next (if set) answers.
type fakeChatter struct {
	script   []fakeReply
	next     func(call int, req model.Request) fakeReply
	requests []model.Request
}

// fakeReply is one scripted answer: a reply or an error.
type fakeReply struct {
	msg   model.Message
	usage model.Usage
	err   error
}

func (f *fakeChatter) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	req.Messages = append([]model.Message(nil), req.Messages...)
	f.requests = append(f.requests, req)
	if err := ctx.Err(); err != nil {
		return model.Response{}, err
	}
	call := len(f.requests) - 1
	var r fakeReply
	switch {
	case call < len(f.script):
		r = f.script[call]
	case f.next != nil:
		r = f.next(call, req)
	default:
		r = fakeReply{msg: text("I am done.")}
	}
	if r.err != nil {
		return model.Response{}, r.err
	}
	r.msg.Role = model.RoleAssistant
	return model.Response{Message: r.msg, Usage: r.usage}, nil
}

// text is a reply without tool calls.
func text(s string) model.Message { return model.Message{Content: s} }

// calls is a reply asking for tools; each pair is a name and its JSON arguments.
func calls(pairs ...string) model.Message {
	var m model.Message
	for i := 0; i+1 < len(pairs); i += 2 {
		m.ToolCalls = append(m.ToolCalls, model.ToolCall{ID: "call_" + pairs[i], Name: pairs[i], Arguments: pairs[i+1]})
	}
	return m
}

func say(m model.Message) fakeReply { return fakeReply{msg: m} }
