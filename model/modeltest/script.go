// Package modeltest holds fake model servers for tests: httptest servers
// that speak Ollama's and the OpenAI chat-completions wire protocols, driven
// by a script of replies, recording every request. The real clients of
// package model talk to them exactly as they talk to a real server.
//
// A whole episode is scripted in order:
//
//	srv := modeltest.NewOllama(t,
//		modeltest.Calls(modeltest.Call("read_file", `{"path":"leap.py"}`)),
//		modeltest.Status(500), // retried by the client
//		modeltest.Text("Fixed."),
//	)
//	c, _ := model.New(srv.Config())
package modeltest

import (
	"time"

	"bench/model"
)

// Reply is one scripted answer of a fake server.
type Reply struct {
	text       string
	calls      []model.ToolCall
	status     int
	errMsg     string
	raw        *string
	delay      time.Duration
	hang       bool
	drop       bool
	stall      bool
	drip       time.Duration
	fn         func(Request) Reply
	always     bool
	prompt     int // backend prompt tokens; -1 = derived from the request
	completion int // backend completion tokens; -1 = derived from the reply
	duration   time.Duration
	doneReason string
	header     map[string]string // response headers, e.g. Retry-After
	trickle    time.Duration     // pause between the body's bytes (a slow-loris)
	huge       int64             // bytes of generated text; 0 = none
}

func reply() Reply { return Reply{prompt: -1, completion: -1, duration: 250 * time.Millisecond} }

// Text is an assistant reply holding only text.
func Text(s string) Reply {
	r := reply()
	r.text = s
	return r
}

// Calls is an assistant reply asking for tool calls, in order.
func Calls(calls ...model.ToolCall) Reply {
	r := reply()
	r.calls = calls
	return r
}

// Call is one tool call; args is the arguments' JSON text. On the Ollama
// wire arguments are a JSON object, so args that are not one make the fake
// send an unreadable chunk; use NewOpenAI to script malformed arguments.
func Call(name, args string) model.ToolCall {
	return model.ToolCall{Name: name, Arguments: args}
}

// Status is an HTTP error reply with the backend's error body.
func Status(code int) Reply { return StatusText(code, "") }

// StatusText is an HTTP error reply with the given error message.
func StatusText(code int, msg string) Reply {
	r := reply()
	r.status = code
	r.errMsg = msg
	return r
}

// Raw is a 200 reply whose body is body verbatim (garbage, a truncated
// stream, hand-written chunks).
func Raw(body string) Reply {
	r := reply()
	r.raw = &body
	return r
}

// Hang never answers: the handler waits until the client gives up (its
// context is cancelled or times out) or the server closes.
func Hang() Reply {
	r := reply()
	r.hang = true
	return r
}

// Drop closes the connection mid-reply (after one chunk when streaming).
func Drop() Reply {
	r := reply()
	r.drop = true
	return r
}

// Stall streams the reply's text and then stalls: the final chunk
// (done=true) never comes, and the handler waits until the client gives up
// or the server closes. Without text the stream stalls before its first
// chunk, after the headers. On the OpenAI fake (not streamed) it is Hang.
func (r Reply) Stall() Reply {
	r.stall = true
	return r
}

// Drip pauses d before each streamed chunk, as a slow model does; the
// handler stops when the client leaves. On the OpenAI fake it delays the reply.
func (r Reply) Drip(d time.Duration) Reply {
	r.drip = d
	return r
}

// Func computes the reply from the request it answers.
func Func(f func(Request) Reply) Reply {
	r := reply()
	r.fn = f
	return r
}

// Always repeats r for every remaining request; it must be the script's last entry.
func Always(r Reply) Reply {
	r.always = true
	return r
}

// After delays the reply by d (the handler still stops if the client leaves).
func (r Reply) After(d time.Duration) Reply {
	r.delay = d
	return r
}

// WithText adds text to a reply (e.g. text alongside tool calls).
func (r Reply) WithText(s string) Reply {
	r.text = s
	return r
}

// WithUsage sets the token counts the fake reports.
func (r Reply) WithUsage(prompt, completion int) Reply {
	r.prompt, r.completion = prompt, completion
	return r
}

// WithDuration sets Ollama's reported total_duration.
func (r Reply) WithDuration(d time.Duration) Reply {
	r.duration = d
	return r
}

// WithDoneReason sets done_reason (Ollama) or finish_reason (OpenAI).
func (r Reply) WithDoneReason(s string) Reply {
	r.doneReason = s
	return r
}

// WithHeader sets a response header of the reply (Retry-After on a 429 or
// 503, say); it may be given several times.
func (r Reply) WithHeader(key, value string) Reply {
	h := make(map[string]string, len(r.header)+1)
	for k, v := range r.header {
		h[k] = v
	}
	h[key] = value
	r.header = h
	return r
}

// Trickle writes the reply's body one byte at a time, pausing d before each,
// as a slow-loris server does: the headers come at once, the body never
// seems to end. The handler stops when the client leaves.
func (r Reply) Trickle(d time.Duration) Reply {
	r.trickle = d
	return r
}

// Huge is a text reply of n bytes ("x", with a space every 64), generated
// as it is written so that the fake holds none of it: Ollama streams it in
// chunks of 64 KiB (Drip pauses before each), OpenAI sends it as one
// completion.
func Huge(n int64) Reply {
	r := reply()
	r.huge = n
	r.completion = int(min(n/4, 1<<30))
	return r
}

// Request is one chat request a fake server received, decoded.
type Request struct {
	N        int       // 0-based index among the chat requests
	Time     time.Time // when the fake received it
	Path     string    // /api/chat or /v1/chat/completions
	Body     []byte    // verbatim
	Model    string
	Stream   bool
	Messages []model.Message
	Tools    []string       // tool names, in the order sent
	Options  map[string]any // Ollama: "options"; OpenAI: seed, temperature, top_p
	Think    *bool          // Ollama: think; OpenAI: chat_template_kwargs.enable_thinking
}

// Last is the request's last message (the zero Message if there is none).
func (r Request) Last() model.Message {
	if len(r.Messages) == 0 {
		return model.Message{}
	}
	return r.Messages[len(r.Messages)-1]
}
