// Package model is the seam between the tracks and a chat model server.
//
// The tracks depend on the one-method Chatter interface only; the Ollama and
// OpenAI-compatible clients implement it, and tests drive those same clients
// against protocol-faithful fake servers.
package model

import (
	"context"
	"time"

	"bench/record"
)

// Roles of chat messages: those a trajectory records.
const (
	RoleSystem    = record.RoleSystem
	RoleUser      = record.RoleUser
	RoleAssistant = record.RoleAssistant
	RoleTool      = record.RoleTool
)

// Message is one chat message in the backend-neutral form the tracks use.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"`    // role tool: the tool that produced it
	ToolCallID string     `json:"tool_call_id,omitempty"` // role tool: the call it answers, when the backend gives ids
}

// ToolCall is one tool invocation requested by the model.
//
// Arguments is the JSON text as the model produced it; it may be malformed,
// and the tool registry reports that back to the model as a tool error.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool describes one tool offered to the model; Parameters is a JSON Schema object.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Parameters  []byte `json:"parameters"`
}

// Options are the sampling options sent with every request.
//
// Seed, Temperature and NumCtx are always sent; TopP and MaxReplyTokens
// only when non-zero.
type Options struct {
	Seed        int     `json:"seed"`
	Temperature float64 `json:"temperature"`
	NumCtx      int     `json:"num_ctx"`
	TopP        float64 `json:"top_p,omitempty"`
	// MaxReplyTokens caps one reply (Ollama num_predict, OpenAI max_tokens):
	// without it Ollama lets a looping model generate until the call times out.
	MaxReplyTokens int  `json:"max_reply_tokens,omitempty"`
	Think          bool `json:"think,omitempty"`
}

// Request is one chat call.
type Request struct {
	Messages []Message
	Tools    []Tool // may be empty; sent in the given order
	Options  Options
}

// Usage holds the token counts of one call: the backend's own and the offline estimate.
type Usage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	EstPromptTokens     int `json:"est_prompt_tokens"`
	EstCompletionTokens int `json:"est_completion_tokens"`
	// EstExtrapolated says that a text of the call was longer than
	// EstExactBytes: its estimate is extrapolated from its start.
	EstExtrapolated bool `json:"est_extrapolated,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:        u.PromptTokens + v.PromptTokens,
		CompletionTokens:    u.CompletionTokens + v.CompletionTokens,
		EstPromptTokens:     u.EstPromptTokens + v.EstPromptTokens,
		EstCompletionTokens: u.EstCompletionTokens + v.EstCompletionTokens,
		EstExtrapolated:     u.EstExtrapolated || v.EstExtrapolated,
	}
}

// Total returns the backend-reported prompt plus completion tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// Response is the assembled reply of one call.
type Response struct {
	Message    Message
	Usage      Usage
	Wall       time.Duration // the client's wait for the reply, retries included
	ModelTime  time.Duration // as reported by the backend (Ollama total_duration), else Wall
	ServerTime time.Duration // as reported by the backend (Ollama total_duration); 0 when it reports none
	Retries    int           // how many failed attempts preceded this reply
	DoneReason string        // why the reply ended: StopEnd, StopLength, StopToolCalls, or the server's own word
}

// Chatter is the one method the tracks need from a model.
type Chatter interface {
	Chat(ctx context.Context, req Request) (Response, error)
}
