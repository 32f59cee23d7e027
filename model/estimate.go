package model

import "bench/model/tokens"

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
// the same.
type Estimator struct {
	c *tokens.Counter
}

// NewEstimator returns an estimator for encoding ("" = cl100k_base).
func NewEstimator(encoding string) (*Estimator, error) {
	c, err := tokens.New(encoding)
	if err != nil {
		return nil, err
	}
	return &Estimator{c: c}, nil
}

// Encoding is the name of the estimator's encoding.
func (e *Estimator) Encoding() string { return e.c.Name() }

// Request estimates the prompt of req: every message (role, content, tool
// calls, tool name) and every tool's name, description and schema.
func (e *Estimator) Request(req Request) int {
	n := estReply
	for _, m := range req.Messages {
		n += estPerMessage + e.c.Count(m.Role) + e.message(m)
		if m.ToolName != "" {
			n += e.c.Count(m.ToolName)
		}
	}
	for _, t := range req.Tools {
		n += estPerTool + e.c.Count(t.Name) + e.c.Count(t.Description) + e.c.Count(string(t.Parameters))
	}
	return n
}

// Reply estimates an assistant message: its text and its tool calls.
func (e *Estimator) Reply(m Message) int { return e.message(m) }

func (e *Estimator) message(m Message) int {
	n := e.c.Count(m.Content)
	for _, tc := range m.ToolCalls {
		n += e.c.Count(tc.Name) + e.c.Count(tc.Arguments)
	}
	return n
}

// fill sets the estimate fields of resp.Usage for req.
func (e *Estimator) fill(req Request, resp *Response) {
	resp.Usage.EstPromptTokens = e.Request(req)
	resp.Usage.EstCompletionTokens = e.Reply(resp.Message)
}
