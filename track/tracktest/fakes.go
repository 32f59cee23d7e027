// Package tracktest holds what the tracks' tests share: a fake model that
// replays canned replies, a fake recorder that keeps events in memory, and
// fixtures that copy a course task into a temp workspace. Fakes only: no
// production code imports this package.
package tracktest

import (
	"context"
	"sync"

	"bench/model"
	"bench/record"
)

// FakeRecorder keeps the events of an episode in memory.
type FakeRecorder struct {
	mu     sync.Mutex
	Events []record.Event
}

// Record keeps ev.
func (r *FakeRecorder) Record(ev record.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, ev)
}

// Of returns the events of one kind, in order.
func (r *FakeRecorder) Of(kind string) []record.Event {
	var out []record.Event
	for _, ev := range r.Events {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// Kinds returns the kind of every event, in order.
func (r *FakeRecorder) Kinds() []string {
	var out []string
	for _, ev := range r.Events {
		out = append(out, ev.Kind)
	}
	return out
}

// FakeChatter replays canned replies, one per call, and keeps every request.
// When the script runs out, Next (if set) answers; else it says it is done.
type FakeChatter struct {
	Script   []FakeReply
	Next     func(call int, req model.Request) FakeReply
	Requests []model.Request
}

// FakeReply is one scripted answer: a reply or an error.
type FakeReply struct {
	Msg   model.Message
	Usage model.Usage
	Err   error
}

// Chat answers with the next scripted reply.
func (f *FakeChatter) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	req.Messages = append([]model.Message(nil), req.Messages...)
	f.Requests = append(f.Requests, req)
	if err := ctx.Err(); err != nil {
		return model.Response{}, err
	}
	call := len(f.Requests) - 1
	var r FakeReply
	switch {
	case call < len(f.Script):
		r = f.Script[call]
	case f.Next != nil:
		r = f.Next(call, req)
	default:
		r = FakeReply{Msg: Text("I am done.")}
	}
	if r.Err != nil {
		return model.Response{}, r.Err
	}
	r.Msg.Role = model.RoleAssistant
	return model.Response{Message: r.Msg, Usage: r.Usage}, nil
}

// Text is a reply without tool calls.
func Text(s string) model.Message { return model.Message{Content: s} }

// Calls is a reply asking for tools; each pair is a name and its JSON arguments.
func Calls(pairs ...string) model.Message {
	var m model.Message
	for i := 0; i+1 < len(pairs); i += 2 {
		m.ToolCalls = append(m.ToolCalls, model.ToolCall{ID: "call_" + pairs[i], Name: pairs[i], Arguments: pairs[i+1]})
	}
	return m
}

// Say wraps a message as a scripted reply.
func Say(m model.Message) FakeReply { return FakeReply{Msg: m} }
