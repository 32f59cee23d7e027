package modeltest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"bench/model"
)

// NewOllama starts a fake Ollama server answering /api/chat (streamed NDJSON
// or a single object when "stream": false) from script, and /api/tags,
// /api/show, /api/version and HEAD / from its models. Like Ollama, it answers
// 404 for an unknown model and 400 for tools sent to a model without the
// "tools" capability; neither consumes a scripted reply.
func NewOllama(t testing.TB, script ...Reply) *Server {
	return newServer(t, model.BackendOllama, script, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /api/chat", s.ollamaChat)
		mux.HandleFunc("GET /api/tags", s.ollamaTags)
		mux.HandleFunc("POST /api/show", s.ollamaShow)
		mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusOK, map[string]string{"version": s.Version})
		})
		mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "Ollama is running")
		})
		return mux
	})
}

// fakeTime is the created_at of every fake chunk: replies are reproducible.
var fakeTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (s *Server) ollamaTags(w http.ResponseWriter, r *http.Request) {
	var list api.ListResponse
	for _, m := range s.modelList() {
		list.Models = append(list.Models, api.ListModelResponse{
			Name: m.Name, Model: m.Name, ModifiedAt: fakeTime, Size: 5_200_000_000, Digest: m.Digest,
			Details: api.ModelDetails{Format: "gguf", Family: "fake", ParameterSize: "8B", QuantizationLevel: "Q4_K_M"},
		})
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) ollamaShow(w http.ResponseWriter, r *http.Request) {
	var req api.ShowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	name := req.Model
	if name == "" {
		//lint:ignore SA1019 older clients name the model in the deprecated field; the fake answers them as Ollama does
		name = req.Name
	}
	m, ok := s.model(name)
	if !ok {
		s.writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", name))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"details":      api.ModelDetails{Format: "gguf", Family: "fake", ParameterSize: "8B", QuantizationLevel: "Q4_K_M"},
		"model_info":   map[string]any{"general.architecture": "fake"},
		"capabilities": m.Capabilities,
		"modified_at":  fakeTime,
	})
}

func (s *Server) ollamaChat(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var areq api.ChatRequest
	if err := json.Unmarshal(body, &areq); err != nil {
		s.writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	m, ok := s.model(areq.Model)
	if !ok {
		s.writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", areq.Model))
		return
	}
	if len(areq.Tools) > 0 && !contains(m.Capabilities, "tools") {
		s.writeError(w, http.StatusBadRequest, fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", areq.Model))
		return
	}
	req := ollamaRequest(areq, body)
	rep, ok := s.next(req)
	if !ok {
		s.exhausted(w, len(s.Requests())-1)
		return
	}
	if !s.wait(r.Context(), rep) {
		return
	}
	w = s.prepare(r.Context(), w, rep)
	switch {
	case rep.status != 0:
		s.writeError(w, rep.status, rep.errMsg)
	case rep.raw != nil:
		w.Header().Set("Content-Type", "application/x-ndjson")
		fmt.Fprint(w, *rep.raw)
	case rep.huge > 0:
		s.ollamaHuge(r.Context(), w, areq.Model, rep, body, req.Stream)
	case req.Stream:
		s.ollamaStream(r.Context(), w, areq.Model, rep, body)
	default:
		if rep.drop {
			panic(http.ErrAbortHandler)
		}
		final := ollamaFinal(areq.Model, rep, body)
		final.Message.Content = rep.text
		final.Message.ToolCalls = wireCalls(rep.calls)
		writeJSON(w, http.StatusOK, final)
	}
}

// ollamaStream writes the reply as Ollama does: text in small chunks, tool
// calls in their own chunk, then a final chunk with the metrics. A dripping
// reply pauses before each chunk; a stalling one stops before the final chunk.
func (s *Server) ollamaStream(ctx context.Context, w http.ResponseWriter, name string, rep Reply, body []byte) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	flush()
	for _, piece := range splitText(rep.text) {
		if !s.pause(ctx, rep.drip) {
			return
		}
		_ = enc.Encode(wireChunk{Model: name, CreatedAt: fakeTime, Message: wireMessage{Role: "assistant", Content: piece}})
		flush()
		if rep.drop {
			panic(http.ErrAbortHandler)
		}
	}
	if rep.drop {
		panic(http.ErrAbortHandler)
	}
	if rep.stall {
		s.wait(ctx, Hang())
		return
	}
	if len(rep.calls) > 0 {
		_ = enc.Encode(wireChunk{Model: name, CreatedAt: fakeTime, Message: wireMessage{Role: "assistant", ToolCalls: wireCalls(rep.calls)}})
		flush()
	}
	_ = enc.Encode(ollamaFinal(name, rep, body))
	flush()
}

// ollamaHuge writes a Huge reply: streamed, a chunk per 64 KiB of text
// (each after the reply's Drip) and the final chunk; not streamed, one
// object whose content is written as it is generated.
func (s *Server) ollamaHuge(ctx context.Context, w http.ResponseWriter, name string, rep Reply, body []byte, stream bool) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	final := ollamaFinal(name, rep, body)
	if !stream {
		fmt.Fprintf(w, `{"model":%q,"created_at":%q,"message":{"role":"assistant","content":"`, name, fakeTime.Format(time.RFC3339Nano))
		if writeHuge(w, rep.huge, nil) != nil {
			return
		}
		fmt.Fprintf(w, `"},"done":true,"done_reason":"stop","prompt_eval_count":%d,"eval_count":%d}`+"\n", final.PromptEvalCount, final.EvalCount)
		return
	}
	err := writeHuge(w, rep.huge, func(piece string) error {
		if !s.pause(ctx, rep.drip) {
			return context.Canceled
		}
		if err := enc.Encode(wireChunk{Model: name, CreatedAt: fakeTime, Message: wireMessage{Role: "assistant", Content: piece}}); err != nil {
			return err
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		return nil
	})
	if err == nil {
		_ = enc.Encode(final)
	}
}

func ollamaFinal(name string, rep Reply, body []byte) wireChunk {
	reason := rep.doneReason
	if reason == "" {
		reason = "stop"
	}
	return wireChunk{
		Model: name, CreatedAt: fakeTime, Message: wireMessage{Role: "assistant"},
		Done: true, DoneReason: reason,
		TotalDuration:      rep.duration,
		LoadDuration:       rep.duration / 10,
		PromptEvalCount:    promptTokens(rep, body),
		PromptEvalDuration: rep.duration / 5,
		EvalCount:          completionTokens(rep),
		EvalDuration:       rep.duration / 2,
	}
}

// splitText cuts text into word-sized pieces, as a model streams it.
func splitText(text string) []string {
	if text == "" {
		return nil
	}
	return strings.SplitAfter(text, " ")
}

// wireChunk is one line of Ollama's /api/chat stream. It mirrors
// api.ChatResponse but lets a script put malformed arguments on the wire.
type wireChunk struct {
	Model              string        `json:"model"`
	CreatedAt          time.Time     `json:"created_at"`
	Message            wireMessage   `json:"message"`
	Done               bool          `json:"done"`
	DoneReason         string        `json:"done_reason,omitempty"`
	TotalDuration      time.Duration `json:"total_duration,omitempty"`
	LoadDuration       time.Duration `json:"load_duration,omitempty"`
	PromptEvalCount    int           `json:"prompt_eval_count,omitempty"`
	PromptEvalDuration time.Duration `json:"prompt_eval_duration,omitempty"`
	EvalCount          int           `json:"eval_count,omitempty"`
	EvalDuration       time.Duration `json:"eval_duration,omitempty"`
}

type wireMessage struct {
	Role      string     `json:"role"`
	Content   string     `json:"content"`
	ToolCalls []wireCall `json:"tool_calls,omitempty"`
}

type wireCall struct {
	ID       string       `json:"id,omitempty"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Index     int             `json:"index"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// wireCalls puts tool calls on Ollama's wire: arguments as a JSON object,
// or, when the script's text is not one, as a JSON string (which a real
// client cannot read).
func wireCalls(calls []model.ToolCall) []wireCall {
	var out []wireCall
	for i, c := range calls {
		args := json.RawMessage(c.Arguments)
		if !isObject(c.Arguments) {
			args, _ = json.Marshal(c.Arguments)
		}
		out = append(out, wireCall{ID: c.ID, Function: wireFunction{Index: i, Name: c.Name, Arguments: args}})
	}
	return out
}

func isObject(s string) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &m) == nil && m != nil
}

// ollamaRequest decodes a chat request into the neutral form tests assert on.
func ollamaRequest(areq api.ChatRequest, body []byte) Request {
	req := Request{Path: "/api/chat", Body: body, Model: areq.Model, Stream: areq.Stream == nil || *areq.Stream, Options: areq.Options}
	if areq.Think != nil {
		b := areq.Think.Bool()
		req.Think = &b
	}
	for _, t := range areq.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for _, m := range areq.Messages {
		mm := model.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			mm.ToolCalls = append(mm.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments.String()})
		}
		req.Messages = append(req.Messages, mm)
	}
	return req
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
