package model_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"bench/model"
)

// updateWire rewrites the golden requests of TestOpenAIWireGolden.
var updateWire = flag.Bool("update", false, "rewrite model/testdata/openai-wire/ from what the OpenAI client sends")

// wireHeaders are the headers a golden request records; others (the
// user agent, Go's own) are not part of the protocol.
var wireHeaders = []string{"Accept", "Authorization", "Content-Type", "OpenAI-Organization", "OpenAI-Project"}

// wireRecorder is a fake OpenAI-compatible server that keeps every request
// in its canonical form and answers a fixed completion or model list.
type wireRecorder struct {
	mu   sync.Mutex
	seen []map[string]any
}

func (w *wireRecorder) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := map[string]any{"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery}
	h := map[string]any{}
	for _, k := range wireHeaders {
		if v, ok := r.Header[http.CanonicalHeaderKey(k)]; ok {
			h[k] = v
		}
	}
	rec["headers"] = h
	if len(body) > 0 {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			v = "not JSON: " + string(body)
		}
		rec["body"] = v
	}
	w.mu.Lock()
	w.seen = append(w.seen, rec)
	w.mu.Unlock()
	rw.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodGet {
		io.WriteString(rw, `{"object":"list","data":[{"id":"qwen3-8b","object":"model","created":1,"owned_by":"x"}]}`)
		return
	}
	io.WriteString(rw, `{"id":"c","object":"chat.completion","created":1,"model":"qwen3-8b","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`)
}

// unsetEnv unsets the variables for the test, restoring them afterwards.
func unsetEnv(t *testing.T, names ...string) {
	for _, n := range names {
		t.Setenv(n, "")
		os.Unsetenv(n)
	}
}

// wireHistory is a conversation with every kind of message: text that
// JSON and HTML escape, an assistant's tool calls (one with malformed
// arguments, one turn with no text) and the tools' results.
func wireHistory() []model.Message {
	return []model.Message{
		{Role: model.RoleSystem, Content: "You fix <bugs> & \"quotes\" — ünïcode\n\ttabs"},
		{Role: model.RoleUser, Content: "Fix slugify."},
		{Role: model.RoleAssistant, Content: "looking", ToolCalls: []model.ToolCall{
			{ID: "call_1", Name: "read_file", Arguments: `{"path":"slugify.py"}`},
			{ID: "call_2", Name: "write_file", Arguments: `{"path": "unterminated`},
		}},
		{Role: model.RoleTool, ToolName: "read_file", ToolCallID: "call_1", Content: "import re\n"},
		{Role: model.RoleTool, ToolName: "write_file", ToolCallID: "call_2", Content: "error: arguments are not valid JSON"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_3", Name: "run_tests", Arguments: `{}`}}},
		{Role: model.RoleTool, ToolName: "run_tests", ToolCallID: "call_3", Content: "OK"},
	}
}

// TestOpenAIWireGolden: the requests the OpenAI client sends (method,
// path, protocol headers and JSON body, canonicalised) are the ones in
// testdata/openai-wire/, which the official openai-go client sent when
// they were written: any other client must be wire-compatible with it.
// go test ./model -run TestOpenAIWireGolden -update rewrites them.
func TestOpenAIWireGolden(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		call func(model.Client) error
	}{
		{"plain", nil, func(c model.Client) error { return chat(c, userRequest("fix")) }},
		{"options", nil, func(c model.Client) error {
			req := userRequest("fix")
			req.Options = model.Options{Seed: 9, Temperature: 0.7, TopP: 0.8, MaxReplyTokens: 256, NumCtx: 8192, Think: true}
			return chat(c, req)
		}},
		{"tools", nil, func(c model.Client) error {
			// Twice: the second call's body is built from kept encodings.
			req := model.Request{Messages: wireHistory(), Tools: fileTools, Options: model.Options{Seed: 7, Temperature: 0.7, TopP: 0.9, MaxReplyTokens: 4096, Think: true}}
			if err := chat(c, req); err != nil {
				return err
			}
			return chat(c, req)
		}},
		{"key", map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_ORG_ID": "org-1", "OPENAI_PROJECT_ID": "proj-1"},
			func(c model.Client) error { return chat(c, userRequest("hi")) }},
		{"models", nil, func(c model.Client) error { _, err := c.Inspect(context.Background()); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			unsetEnv(t, "OPENAI_API_KEY", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_BASE_URL", "OPENAI_CUSTOM_HEADERS")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			rec := &wireRecorder{}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			c := newClient(t, model.Config{Backend: model.BackendOpenAI, Host: srv.URL, Model: "qwen3-8b", RetryWindow: -1})
			if err := tc.call(c); err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(rec.seen, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "openai-wire", tc.name+".json")
			if *updateWire {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./model -run TestOpenAIWireGolden -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the request differs from %s:\n got %s\nwant %s", path, got, want)
			}
		})
	}
}

func chat(c model.Client, req model.Request) error {
	_, err := c.Chat(context.Background(), req)
	return err
}
