package model

import (
	"sync"

	"bench/model/tokens"
)

// Per-message and per-tool overheads of the estimate, in tokens: the role
// markers and separators a chat template adds (the figures OpenAI documents
// for its chat format), so that an empty message still costs something.
const (
	estPerMessage = 3
	estPerTool    = 8
	estReply      = 3 // the assistant's reply header
)

// Estimator gives the offline token estimate of requests and replies with
// one tiktoken encoding. It is deterministic: the same request always counts
// the same. It is safe for concurrent use.
//
// A conversation resends its whole history with every call, so the
// estimator remembers the counts of the texts it has seen: each call counts
// only what is new.
type Estimator struct {
	c         *tokens.Counter
	mu        sync.Mutex
	memo      map[string]int
	memoBytes int
}

// memoMaxBytes bounds the memo: past it, the memo starts afresh.
const memoMaxBytes = 32 << 20

// NewEstimator returns an estimator for encoding ("" = cl100k_base).
func NewEstimator(encoding string) (*Estimator, error) {
	c, err := tokens.New(encoding)
	if err != nil {
		return nil, err
	}
	return &Estimator{c: c, memo: map[string]int{}}, nil
}

// Encoding is the name of the estimator's encoding.
func (e *Estimator) Encoding() string { return e.c.Name() }

// count is the token count of s, remembered.
func (e *Estimator) count(s string) int {
	e.mu.Lock()
	n, ok := e.memo[s]
	e.mu.Unlock()
	if ok {
		return n
	}
	n = e.c.Count(s)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.memoBytes+len(s) > memoMaxBytes {
		clear(e.memo)
		e.memoBytes = 0
	}
	e.memo[s] = n
	e.memoBytes += len(s)
	return n
}

// Request estimates the prompt of req: every message (role, content, tool
// calls, tool name) and every tool's name, description and schema.
func (e *Estimator) Request(req Request) int {
	n := estReply
	for _, m := range req.Messages {
		n += estPerMessage + e.count(m.Role) + e.message(m)
		if m.ToolName != "" {
			n += e.count(m.ToolName)
		}
	}
	for _, t := range req.Tools {
		n += estPerTool + e.count(t.Name) + e.count(t.Description) + e.count(string(t.Parameters))
	}
	return n
}

// Reply estimates an assistant message: its text and its tool calls.
func (e *Estimator) Reply(m Message) int { return e.message(m) }

func (e *Estimator) message(m Message) int {
	n := e.count(m.Content)
	for _, tc := range m.ToolCalls {
		n += e.count(tc.Name) + e.count(tc.Arguments)
	}
	return n
}

// fill sets the estimate fields of resp.Usage for req.
func (e *Estimator) fill(req Request, resp *Response) {
	resp.Usage.EstPromptTokens = e.Request(req)
	resp.Usage.EstCompletionTokens = e.Reply(resp.Message)
}
