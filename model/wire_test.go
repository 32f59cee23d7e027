package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
)

// referenceBody is the /api/chat body for req as the official client
// builds it: api.ChatRequest, converted here afresh and independently of
// wire (arguments decoded into Ollama's ordered map, the malformed sent as
// an empty object), encoded by json.Marshal.
func referenceBody(t *testing.T, model string, req Request, think *api.ThinkValue) []byte {
	t.Helper()
	var msgs []api.Message
	for _, m := range req.Messages {
		am := api.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		for i, tc := range m.ToolCalls {
			args := api.NewToolCallFunctionArguments()
			if json.Unmarshal([]byte(tc.Arguments), &args) != nil {
				args = api.NewToolCallFunctionArguments()
			}
			am.ToolCalls = append(am.ToolCalls, api.ToolCall{ID: tc.ID, Function: api.ToolCallFunction{Index: i, Name: tc.Name, Arguments: args}})
		}
		msgs = append(msgs, am)
	}
	var tools api.Tools
	for _, tl := range req.Tools {
		var p api.ToolFunctionParameters
		if err := json.Unmarshal(tl.Parameters, &p); err != nil {
			t.Fatal(err)
		}
		tools = append(tools, api.Tool{Type: "function", Function: api.ToolFunction{Name: tl.Name, Description: tl.Description, Parameters: p}})
	}
	opts := map[string]any{"seed": req.Options.Seed, "temperature": req.Options.Temperature, "num_ctx": req.Options.NumCtx}
	if req.Options.MaxReplyTokens > 0 {
		opts["num_predict"] = req.Options.MaxReplyTokens
	}
	if req.Options.TopP != 0 {
		opts["top_p"] = req.Options.TopP
	}
	stream := true
	b, err := json.Marshal(api.ChatRequest{Model: model, Messages: msgs, Stream: &stream, Tools: tools, Options: opts, Think: think})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decoded is a JSON text as plain values, to compare two encodings by meaning.
func decoded(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// TestWireBodyIsTheOfficialClients: the body wire builds from kept
// encodings means what the official client's would, for messages of every
// shape, on the first call and on the calls that reuse the encodings;
// and a request that grows by a turn reuses what it sent before.
func TestWireBodyIsTheOfficialClients(t *testing.T) {
	history := []Message{
		{Role: RoleSystem, Content: "You fix <bugs> & \"quotes\" — ünïcode"},
		{Role: RoleUser, Content: "Fix it.\n\tNow."},
		{Role: RoleAssistant, Content: "looking", ToolCalls: []ToolCall{
			{ID: "c1", Name: "read_file", Arguments: `{"path":"a.py"}`},
			{ID: "c2", Name: "write_file", Arguments: `{ "path" : "b.py", "content": "x < 1 && y > 2\n", "n": 1.50, "z": [true, null] }`},
			{Name: "broken", Arguments: `{"path": "unterminated`},
			{Name: "empty", Arguments: ""},
			{Name: "fifth", Arguments: `{}`},
		}},
		{Role: RoleTool, ToolName: "read_file", ToolCallID: "c1", Content: "def f(): pass\n"},
	}
	tools := agentTools()
	requests := []Request{
		{Messages: history[:2], Options: Options{Seed: 7, Temperature: 0.7, NumCtx: 8192}},
		{Messages: history, Tools: tools, Options: Options{Seed: 7, Temperature: 0.7, NumCtx: 8192, MaxReplyTokens: 4096, TopP: 0.9}},
		{Messages: append(history, Message{Role: RoleUser, Content: "again"}), Tools: tools, Options: Options{Seed: 8, NumCtx: 4096}},
	}
	w := newWire()
	for i, req := range requests {
		for _, think := range []*api.ThinkValue{nil, {Value: false}, {Value: true}} {
			for pass := range 2 { // the second from kept encodings
				b, err := w.chatBody("qwen3:8b", req, think)
				if err != nil {
					t.Fatal(err)
				}
				body := b.bytes()
				want := referenceBody(t, "qwen3:8b", req, think)
				if !reflect.DeepEqual(decoded(t, body), decoded(t, want)) {
					t.Fatalf("request %d, think %v, pass %d:\n got %s\nwant %s", i, think, pass, body, want)
				}
				var areq api.ChatRequest
				if err := json.Unmarshal(body, &areq); err != nil || areq.Model != "qwen3:8b" || !*areq.Stream {
					t.Fatalf("the official types do not read the body: %v", err)
				}
			}
		}
	}
	if !strings.Contains(requests[1].Messages[2].ToolCalls[1].Arguments, "1.50") {
		t.Fatal("the test lost its raw arguments")
	}
	kept := len(w.msgs)
	again := Request{Messages: append([]Message(nil), requests[2].Messages...), Tools: tools} // a copy, as each call's request is
	w.chatBody("qwen3:8b", again, nil)
	if len(w.msgs) != kept {
		t.Errorf("a request of messages already sent encoded %d more", len(w.msgs)-kept)
	}
}

// TestWireForgetsPastItsBound: past wireMaxBytes the kept encodings start afresh.
func TestWireForgetsPastItsBound(t *testing.T) {
	w := newWire()
	big := strings.Repeat("x", 1<<20)
	for i := range 80 {
		if _, err := w.message(Message{Role: RoleUser, Content: big + string(rune('a'+i%26)) + strings.Repeat("y", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if w.size > wireMaxBytes {
		t.Errorf("the wire holds %d bytes, more than %d", w.size, wireMaxBytes)
	}
}
