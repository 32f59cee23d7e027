package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// completion is the part of a chat completion bench reads. Servers differ
// in what they leave out or null: every field may be missing.
type completion struct {
	Choices []struct {
		Message struct {
			Content   json.RawMessage `json:"content"` // a string, null, or a list of text parts
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"` // a JSON string, or from some servers the object itself
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     float64 `json:"prompt_tokens"`
		CompletionTokens float64 `json:"completion_tokens"`
	} `json:"usage"`
}

// decodeCompletion reads a completion from b.
func decodeCompletion(b []byte) (*completion, error) {
	var cc completion
	if err := json.Unmarshal(b, &cc); err != nil {
		return nil, err
	}
	return &cc, nil
}

// openaiReply converts the first choice of a completion; one without choices,
// or whose content or arguments are neither text nor JSON, is ErrBadReply.
func openaiReply(g edge, cc *completion) (Response, error) {
	if len(cc.Choices) == 0 {
		return Response{}, badReply(g, errors.New("no choices"), "the completion has no choices")
	}
	ch := cc.Choices[0]
	text, err := contentText(ch.Message.Content)
	if err != nil {
		return Response{}, badReply(g, err, "the message's content is "+clip(err.Error(), 200))
	}
	resp := Response{Message: Message{Role: RoleAssistant, Content: text}}
	if ch.FinishReason != nil {
		resp.DoneReason = *ch.FinishReason
	}
	if u := cc.Usage; u != nil {
		resp.Usage = Usage{PromptTokens: int(u.PromptTokens), CompletionTokens: int(u.CompletionTokens)}
	}
	for _, tc := range ch.Message.ToolCalls {
		args, err := argumentsText(tc.Function.Arguments)
		if err != nil {
			return Response{}, badReply(g, err, "the arguments of tool call "+tc.Function.Name+" are "+clip(err.Error(), 200))
		}
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	resp.DoneReason = stopReason(resp.DoneReason, len(resp.Message.ToolCalls) > 0)
	return resp, nil
}

// badReply is the ErrBadReply of a completion bench cannot use.
func badReply(g edge, err error, detail string) *Error {
	e := g.classify(context.Background(), err, 0, detail)
	e.Kind = ErrBadReply
	return e
}

// contentText is a message's text: a JSON string, nothing for null or
// absent, or the texts of a list of parts ({"type":"text","text":…}) joined.
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", nil
	case raw[0] == '[':
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", errors.New("neither text nor a list of text parts")
		}
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String(), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errors.New("neither text nor a list of text parts")
	}
	return s, nil
}

// argumentsText is a tool call's arguments as the model wrote them: the
// JSON string's text, kept raw however malformed; nothing for null or
// absent; and an object (or any other JSON value) a server sends in the
// string's place, compacted.
func argumentsText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", err
	}
	return b.String(), nil
}

// openaiErrorText is the message of an error answer's body: OpenAI's
// {"error":{"message":…}}, the {"error":"…"} of Ollama and older servers,
// a top-level "message" (vLLM's older errors) or "detail" string
// (FastAPI's, for a path it does not serve); else the error object
// itself, the body's text, or, for an empty body or an HTML page, status.
func openaiErrorText(b []byte, status string) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(b, &e) == nil {
		var obj struct {
			Message string `json:"message"`
		}
		var s, detail string
		switch {
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != "":
			return obj.Message
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			return s
		case e.Message != "":
			return e.Message
		case json.Unmarshal(e.Detail, &detail) == nil && detail != "":
			return detail
		case len(e.Error) > 0 && string(e.Error) != "null":
			return clip(string(e.Error), 200)
		}
	}
	text := strings.TrimSpace(string(b))
	if text == "" || strings.HasPrefix(text, "<") {
		return status
	}
	return clip(text, 200)
}
