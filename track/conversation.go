package track

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"bench/model"
	"bench/record"
)

// Conversation is the message history of one episode. It sends requests
// through env.Model, records a request and a response event for every call,
// and sums calls, usage, model time and step digests into an Outcome.
//
// The first message is the system prompt; it is set once, when the
// conversation is made, and never changes afterwards.
type Conversation struct {
	env   *Env
	rec   record.Recorder // the episode's recorder
	msgs  []model.Message
	sent  int              // messages already shown in a request event
	count *model.Estimator // nil when no encoding loads: the estimate is then 0
	out   Outcome
}

// NewConversation starts a conversation whose first message is system. It
// routes env.Rec through the conversation, so that every event of the
// episode (test runs included) is stamped with the turn it belongs to.
func NewConversation(env *Env, system string) *Conversation {
	c := &Conversation{env: env, rec: env.Rec}
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

// Turn is the number of model calls started so far; events are stamped with it.
func (c *Conversation) Turn() int { return c.out.ModelCalls }

// End returns the outcome summed so far (model calls, usage, model time,
// steps) with the exit reason and error. It records no event: the episode
// (runner.Episode) records the end event once grading is done, also for
// tracks that never got this far.
func (c *Conversation) End(exit string, err error) Outcome {
	o := c.out
	o.Exit, o.Err = exit, err
	return o
}

// Record stamps ev with the current turn and hands it to the recorder.
func (c *Conversation) Record(ev record.Event) {
	ev.Turn = c.Turn()
	c.rec.Record(ev)
}

// Call sends the whole history with tools (nil for none), records the request
// (only the messages added since the previous one) and, on success, the
// response, and appends the reply to the history.
func (c *Conversation) Call(ctx context.Context, tools []model.Tool) (model.Response, error) {
	c.out.ModelCalls++
	req := model.Request{Messages: append([]model.Message(nil), c.msgs...), Tools: tools, Options: c.env.Options}
	ev := record.Event{Kind: record.EventRequest, Messages: toResults(c.msgs[c.sent:]), EstTokens: c.promptEstimate(req)}
	for _, t := range tools {
		ev.Tools = append(ev.Tools, t.Name)
	}
	c.sent = len(c.msgs)
	c.Record(ev)
	resp, err := c.env.Model.Chat(ctx, req)
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
	c.out.Usage = c.out.Usage.Add(resp.Usage)
	c.out.ModelTime += resp.ModelTime
	c.out.Steps = append(c.out.Steps, Digest(reply))
	return resp, nil
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
func ExitFor(ctx context.Context, err error) string {
	if ctx.Err() != nil || errors.Is(err, model.ErrInterrupted) || errors.Is(err, context.Canceled) {
		return record.ExitInterrupted
	}
	return record.ExitError
}

// IsCut reports whether resp was cut off at the reply cap before it ended.
func IsCut(resp model.Response) bool { return resp.DoneReason == model.StopLength }
