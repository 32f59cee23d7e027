package track

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"bench/model"
	"bench/record"
	"bench/testrun"
)

// Conversation is the message history of one episode. It sends requests
// through env.Model, records a request and a response event for every call,
// and sums calls, usage, model time and step digests into an Outcome.
//
// The first message is the system prompt; it is set once, when the
// conversation is made, and never changes afterwards.
type Conversation struct {
	env    *Env
	rec    record.Recorder // the episode's recorder, or the conversation an aside is part of
	chat   model.Chatter   // where the calls go: env.Model, or an aside's own model
	parent *Conversation   // the conversation an aside is part of; nil for the episode's own
	within string          // an aside's mark on its events (Event.Within)
	msgs   []model.Message
	sent   int              // messages already shown in a request event
	turn   int              // calls this conversation started itself
	count  *model.Estimator // nil when no encoding loads: the estimate is then 0
	out    Outcome
}

// NewConversation starts a conversation whose first message is system. It
// routes env.Rec through the conversation, so that every event of the
// episode (test runs included) is stamped with the turn it belongs to.
func NewConversation(env *Env, system string) *Conversation {
	c := &Conversation{env: env, rec: env.Rec, chat: env.Model}
	env.Rec = c
	if e, err := model.NewEstimator(""); err == nil { // the estimate is informative; without it, it stays 0
		c.count = e
	}
	c.Add(model.Message{Role: model.RoleSystem, Content: system})
	return c
}

// Add appends messages to the history; they are sent with the next call.
func (c *Conversation) Add(msgs ...model.Message) {
	c.msgs = append(c.msgs, msgs...)
}

// Aside starts a side conversation within c, whose first message is
// system: a track's own step that asks a model apart from c's history
// (the workflow the hybrid agent runs as a tool). Its calls go to chat
// (env.Model when nil). Its events go through c, stamped with c's turn and
// marked within (Event.Within, when they carry no mark of their own). Each
// of its calls counts once in c's outcome as in its own: in ModelCalls,
// Usage, ModelTime and Steps, and also in WorkflowCalls and WorkflowUsage;
// it is no turn of c.
func (c *Conversation) Aside(system, within string, chat model.Chatter) *Conversation {
	if chat == nil {
		chat = c.env.Model
	}
	a := &Conversation{env: c.env, rec: c, chat: chat, parent: c, within: within, count: c.count}
	a.Add(model.Message{Role: model.RoleSystem, Content: system})
	return a
}

// Turn is the number of model calls the episode's own conversation has
// started so far (an aside's calls are not turns); events are stamped with it.
func (c *Conversation) Turn() int {
	if c.parent != nil {
		return c.parent.Turn()
	}
	return c.turn
}

// Env is the episode the conversation belongs to.
func (c *Conversation) Env() *Env { return c.env }

// Spent is what the calls so far, an aside's included, cost against a
// token budget: per call, the backend's own count, or the offline
// estimate when the backend reported none (some OpenAI-compatible servers
// send no usage), so that a budget always stops a track.
func (c *Conversation) Spent() int { return c.out.spent }

// RunTests runs the task's test command as Env.RunTests does, recording
// its test_run event through c (marked, in an aside).
func (c *Conversation) RunTests(ctx context.Context) (testrun.Result, error) {
	return c.env.runTests(ctx, c)
}

// End returns the outcome summed so far (model calls, usage, model time,
// steps) with the exit reason and error. It records no event: the episode
// (the runner's) records the end event once grading is done, also for
// tracks that never got this far.
func (c *Conversation) End(exit record.ExitReason, err error) Outcome {
	o := c.out
	o.Exit, o.Err = exit, err
	return o
}

// Record stamps ev with the current turn (and an aside's mark) and hands
// it to the recorder.
func (c *Conversation) Record(ev record.Event) {
	ev.Turn = c.Turn()
	if ev.Within == "" {
		ev.Within = c.within
	}
	c.rec.Record(ev)
}

// Call sends the whole history with tools (nil for none), records the request
// (only the messages added since the previous one) and, on success, the
// response, and appends the reply to the history.
func (c *Conversation) Call(ctx context.Context, tools []model.Tool) (model.Response, error) {
	c.turn++
	c.tally(func(o *Outcome) { o.ModelCalls++ }, func(o *Outcome) { o.WorkflowCalls++ })
	req := model.Request{Messages: append([]model.Message(nil), c.msgs...), Tools: tools, Options: c.env.Options}
	ev := record.Event{Kind: record.EventRequest, Messages: toResults(c.msgs[c.sent:]), EstTokens: c.promptEstimate(req)}
	for _, t := range tools {
		ev.Tools = append(ev.Tools, t.Name)
	}
	c.sent = len(c.msgs)
	c.Record(ev)
	resp, err := c.chat.Chat(ctx, req)
	if err != nil {
		return resp, err
	}
	reply := resp.Message
	if reply.Role == "" {
		reply.Role = model.RoleAssistant
	}
	c.Add(reply)
	c.sent = len(c.msgs) // the reply is recorded in the response event
	stored := toResults([]model.Message{reply})[0]
	c.Record(record.Event{
		Kind: record.EventResponse, Reply: &stored,
		PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens,
		EstCompletion: resp.Usage.EstCompletionTokens,
		DurationMS:    resp.Wall.Milliseconds(), Retries: resp.Retries,
		StopReason: resp.DoneReason,
	})
	step := Digest(reply)
	c.tally(func(o *Outcome) {
		o.Usage = o.Usage.Add(resp.Usage)
		o.ModelTime += resp.ModelTime
		o.Steps = append(o.Steps, step)
		o.spent += budgetTokens(resp.Usage)
	}, func(o *Outcome) { o.WorkflowUsage = o.WorkflowUsage.Add(resp.Usage) })
	return resp, nil
}

// tally applies add to c's outcome and to the outcomes of the
// conversations c is an aside of, so that an aside's call counts once in
// the episode's sums; to those alone it also applies inner, their count of
// what their asides spent.
func (c *Conversation) tally(add, inner func(*Outcome)) {
	add(&c.out)
	for p := c.parent; p != nil; p = p.parent {
		add(&p.out)
		inner(&p.out)
	}
}

// budgetTokens is what one call costs against a token budget: the
// backend's own counts, or the offline estimate when it reported none.
func budgetTokens(u model.Usage) int {
	if n := u.Total(); n > 0 {
		return n
	}
	return u.EstPromptTokens + u.EstCompletionTokens
}

// Digest is a short, stable fingerprint of a reply: the first 8 hex digits
// of the SHA-256 of its content and tool calls. Twin runs diverge at the
// first step whose digests differ.
func Digest(m model.Message) string {
	h := sha256.New()
	h.Write([]byte(m.Content))
	for _, tc := range m.ToolCalls {
		h.Write([]byte{0})
		h.Write([]byte(tc.Name))
		h.Write([]byte{0})
		h.Write([]byte(tc.Arguments))
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// promptEstimate is the offline estimate of the whole prompt of req, the
// same figure the client reports as est_prompt_tokens.
func (c *Conversation) promptEstimate(req model.Request) int {
	if c.count == nil {
		return 0
	}
	return c.count.Request(req)
}

func toResults(msgs []model.Message) []record.Message {
	out := make([]record.Message, 0, len(msgs))
	for _, m := range msgs {
		rm := record.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName}
		for _, tc := range m.ToolCalls {
			rm.ToolCalls = append(rm.ToolCalls, record.ToolCall{Name: tc.Name, Arguments: tc.Arguments})
		}
		out = append(out, rm)
	}
	return out
}

// ExitFor names the exit reason of a track stopped by err: interrupted when
// ctx was cancelled or the call was interrupted, error otherwise.
func ExitFor(ctx context.Context, err error) record.ExitReason {
	if ctx.Err() != nil || errors.Is(err, model.ErrInterrupted) || errors.Is(err, context.Canceled) {
		return record.ExitInterrupted
	}
	return record.ExitError
}

// IsCut reports whether resp was cut off at the reply cap before it ended.
func IsCut(resp model.Response) bool { return resp.DoneReason == model.StopLength }
