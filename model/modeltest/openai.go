package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"bench/model"
)

// NewOpenAI starts a fake OpenAI-compatible server answering
// POST /v1/chat/completions (non-streamed) from script and GET /v1/models
// from its models. Its URL is the host; model.Config.BaseURL adds /v1.
// Unlike the Ollama fake it accepts any model name in a chat request, as
// llama.cpp's server does.
func NewOpenAI(t testing.TB, script ...Reply) *Server {
	return newServer(t, model.BackendOpenAI, script, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /v1/chat/completions", s.openaiChat)
		mux.HandleFunc("GET /v1/models", s.openaiModels)
		return mux
	})
}

func (s *Server) openaiModels(w http.ResponseWriter, r *http.Request) {
	data := []map[string]any{}
	for _, m := range s.modelList() {
		data = append(data, map[string]any{"id": m.Name, "object": "model", "created": fakeTime.Unix(), "owned_by": "fake"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// openaiWire is the part of a chat-completions request the fake reads.
type openaiWire struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ChatTemplateKwargs struct {
		EnableThinking *bool `json:"enable_thinking"`
	} `json:"chat_template_kwargs"`
}

func (s *Server) openaiChat(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	req, err := openaiRequest(body)
	if err != nil {
		s.writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Stream {
		s.writeError(w, http.StatusBadRequest, "fake OpenAI server: streaming is not implemented")
		return
	}
	rep, ok := s.next(req)
	if !ok {
		s.exhausted(w, len(s.Requests())-1)
		return
	}
	if rep.stall {
		rep.hang = true
	}
	rep.delay += rep.drip * time.Duration(len(splitText(rep.text))+1)
	if !s.wait(r.Context(), rep) {
		return
	}
	w = s.prepare(r.Context(), w, rep)
	switch {
	case rep.status != 0:
		s.writeError(w, rep.status, rep.errMsg)
	case rep.raw != nil:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, *rep.raw)
	case rep.drop:
		panic(http.ErrAbortHandler)
	case rep.huge > 0:
		openaiHuge(w, req, rep, body)
	default:
		writeJSON(w, http.StatusOK, openaiCompletion(req, rep, body))
	}
}

func openaiCompletion(req Request, rep Reply, body []byte) map[string]any {
	msg := map[string]any{"role": "assistant", "content": rep.text}
	reason := "stop"
	if len(rep.calls) > 0 {
		reason = "tool_calls"
		var calls []map[string]any
		for i, c := range rep.calls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", req.N, i)
			}
			calls = append(calls, map[string]any{
				"id": id, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments},
			})
		}
		msg["tool_calls"] = calls
	}
	if rep.doneReason != "" {
		reason = rep.doneReason
	}
	p, c := promptTokens(rep, body), completionTokens(rep)
	return map[string]any{
		"id": fmt.Sprintf("chatcmpl-fake-%d", req.N), "object": "chat.completion",
		"created": fakeTime.Unix(), "model": req.Model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": reason}},
		"usage":   map[string]any{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
	}
}

// openaiHuge writes a Huge reply as one completion whose content is
// written as it is generated.
func openaiHuge(w http.ResponseWriter, req Request, rep Reply, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-fake-%d","object":"chat.completion","created":%d,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":"`,
		req.N, fakeTime.Unix(), req.Model)
	if writeHuge(w, rep.huge, nil) != nil {
		return
	}
	p, c := promptTokens(rep, body), completionTokens(rep)
	fmt.Fprintf(w, `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`+"\n", p, c, p+c)
}

// openaiRequest decodes a chat-completions request into the neutral form.
func openaiRequest(body []byte) (Request, error) {
	var wire openaiWire
	if err := json.Unmarshal(body, &wire); err != nil {
		return Request{}, err
	}
	var top map[string]any
	if err := json.Unmarshal(body, &top); err != nil {
		return Request{}, err
	}
	req := Request{Path: "/v1/chat/completions", Body: body, Model: wire.Model, Stream: wire.Stream,
		Think: wire.ChatTemplateKwargs.EnableThinking, Options: map[string]any{}}
	for _, k := range []string{"seed", "temperature", "top_p", "max_tokens"} {
		if v, ok := top[k]; ok {
			req.Options[k] = v
		}
	}
	for _, t := range wire.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for _, m := range wire.Messages {
		mm := model.Message{Role: m.Role, ToolCallID: m.ToolCallID}
		if len(m.Content) > 0 && string(m.Content) != "null" {
			if err := json.Unmarshal(m.Content, &mm.Content); err != nil {
				return Request{}, fmt.Errorf("message content: only strings are supported by the fake: %v", err)
			}
		}
		for _, tc := range m.ToolCalls {
			mm.ToolCalls = append(mm.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		req.Messages = append(req.Messages, mm)
	}
	return req, nil
}
