package model_test

import (
	"context"
	"testing"

	"bench/model"
	"bench/model/modeltest"
)

// TestStopReasons: both clients report why a reply ended, in one vocabulary.
func TestStopReasons(t *testing.T) {
	calls := modeltest.Calls(modeltest.Call("run_tests", `{}`))
	cases := []struct {
		name string
		rep  modeltest.Reply
		want string
	}{
		{"stop", modeltest.Text("done"), model.StopEnd},
		{"length", modeltest.Text("def f(x):\n    return").WithDoneReason("length"), model.StopLength},
		{"tool calls", calls, model.StopToolCalls},
		{"tool calls cut", calls.WithDoneReason("length"), model.StopLength},
		{"upper case", modeltest.Text("x").WithDoneReason("LENGTH"), model.StopLength},
	}
	for _, backend := range []string{model.BackendOllama, model.BackendOpenAI} {
		for _, c := range cases {
			t.Run(backend+"/"+c.name, func(t *testing.T) {
				srv := fake(t, backend, c.rep)
				req := userRequest("hi")
				req.Tools = fileTools
				resp, err := newClient(t, srv.Config()).Chat(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if resp.DoneReason != c.want {
					t.Errorf("DoneReason = %q, want %q", resp.DoneReason, c.want)
				}
			})
		}
	}
}

// TestStopReasonsWireSpellings: what servers actually send, normalised.
func TestStopReasonsWireSpellings(t *testing.T) {
	ollama := map[string]string{
		`{"model":"qwen3:8b","message":{"role":"assistant","content":"hi"},"done":true}`:                            model.StopEnd, // older servers
		`{"model":"qwen3:8b","message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"length"}`:     model.StopLength,
		`{"model":"qwen3:8b","message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"unload"}`:     "unload",
		`{"model":"qwen3:8b","message":{"role":"assistant","content":"hi"},"done":true,"done_reason":" stop\t"}`:    model.StopEnd,
		`{"model":"qwen3:8b","message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"tool_calls"}`: model.StopToolCalls,
	}
	for body, want := range ollama {
		srv := modeltest.NewOllama(t, modeltest.Raw(body+"\n"))
		resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if err != nil || resp.DoneReason != want {
			t.Errorf("ollama %s: %q %v, want %q", body, resp.DoneReason, err, want)
		}
	}
	openai := map[string]string{
		"function_call":  model.StopToolCalls,
		"content_filter": "content_filter",
		"":               model.StopEnd,
	}
	for reason, want := range openai {
		srv := modeltest.NewOpenAI(t, modeltest.Raw(`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"`+reason+`"}]}`))
		resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if err != nil || resp.DoneReason != want {
			t.Errorf("openai %q: %q %v, want %q", reason, resp.DoneReason, err, want)
		}
	}
}
