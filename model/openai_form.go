package model

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// openaiMessage is a message of a chat-completions request as the
// official client encodes it: tool_call_id on tool results only, content
// always (an assistant's empty text too), tool_calls when there are any.
type openaiMessage struct {
	Role       string           `json:"role"`
	Content    string           `json:"content"`
	ToolCallID *string          `json:"tool_call_id,omitempty"`
	ToolCalls  []openaiToolCall `json:"tool_calls,omitempty"`
}

// openaiToolCall is an assistant's tool call, its arguments the text the
// model wrote, valid JSON or not.
type openaiToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// openaiTool is a function tool of a chat-completions request.
type openaiTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

// toOpenAIMessage converts one message; tool results become tool messages
// answering their tool_call_id, and any role but system, assistant and
// tool is sent as the user's.
func toOpenAIMessage(m Message) openaiMessage {
	switch m.Role {
	case RoleSystem:
		return openaiMessage{Role: RoleSystem, Content: m.Content}
	case RoleTool:
		id := m.ToolCallID
		return openaiMessage{Role: RoleTool, Content: m.Content, ToolCallID: &id}
	case RoleAssistant:
		a := openaiMessage{Role: RoleAssistant, Content: m.Content}
		for _, tc := range m.ToolCalls {
			call := openaiToolCall{ID: tc.ID, Type: "function"}
			call.Function.Name, call.Function.Arguments = tc.Name, tc.Arguments
			a.ToolCalls = append(a.ToolCalls, call)
		}
		return a
	}
	return openaiMessage{Role: RoleUser, Content: m.Content}
}

// openaiTools converts the tools, in the order given; a tool without
// parameters takes no arguments.
func openaiTools(in []Tool) ([]openaiTool, error) {
	var out []openaiTool
	for _, t := range in {
		var schema map[string]any
		raw := t.Parameters
		if len(raw) == 0 {
			raw = []byte(`{"type":"object","properties":{}}`)
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			return nil, fmt.Errorf("tool %q: parameters must be a JSON Schema object: %v", t.Name, err)
		}
		ot := openaiTool{Type: "function"}
		ot.Function.Name, ot.Function.Description, ot.Function.Parameters = t.Name, t.Description, schema
		out = append(out, ot)
	}
	return out, nil
}

// newOpenAIWire is the wire of chat completions.
func newOpenAIWire() *wire {
	return wireOf(func(m Message) any { return toOpenAIMessage(m) }, func(ts []Tool) (any, error) { return openaiTools(ts) })
}

// openaiBody is the JSON body of a chat completion for req, from the
// wire's kept encodings: model, messages, seed and temperature always,
// top_p and max_tokens when set, chat_template_kwargs.enable_thinking set
// to think, and the tools when there are any (testdata/openai-wire holds
// what the official client sent).
func (c *openaiClient) openaiBody(req Request) (*body, error) {
	o := req.Options
	b, err := c.wire.messages(c.cfg.Model, req.Messages)
	if err != nil {
		return nil, err
	}
	var tail bytes.Buffer
	tail.WriteString("]")
	fields := []struct {
		name string
		v    any
		set  bool
	}{
		{"seed", o.Seed, true}, {"temperature", o.Temperature, true},
		{"top_p", o.TopP, o.TopP != 0}, {"max_tokens", o.MaxReplyTokens, o.MaxReplyTokens > 0},
		{"chat_template_kwargs", map[string]bool{"enable_thinking": o.Think}, true},
	}
	for _, f := range fields {
		if !f.set {
			continue
		}
		tail.WriteString(`,"` + f.name + `":`)
		if err := appendJSON(&tail, f.v); err != nil {
			return nil, err
		}
	}
	if len(req.Tools) > 0 {
		enc, err := c.wire.toolList(req.Tools)
		if err != nil {
			return nil, err
		}
		tail.WriteString(`,"tools":`)
		tail.Write(enc)
	}
	tail.WriteByte('}')
	b.tail = tail.Bytes()
	return b, nil
}
