package model_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"bench/model"
	"bench/model/modeltest"
)

func TestOpenAITextAndUsage(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Text("Fixed the off-by-one.").WithUsage(300, 12))
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("fix"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "Fixed the off-by-one." || resp.Message.Role != model.RoleAssistant {
		t.Errorf("message = %+v", resp.Message)
	}
	if resp.Usage.PromptTokens != 300 || resp.Usage.CompletionTokens != 12 || resp.Usage.EstPromptTokens == 0 {
		t.Errorf("usage = %+v", resp.Usage)
	}
	if resp.DoneReason != "stop" || resp.ModelTime <= 0 {
		t.Errorf("done=%q model time=%v", resp.DoneReason, resp.ModelTime)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/chat/completions" || r.Model != modeltest.DefaultModel || r.Stream {
		t.Errorf("request = %+v", r)
	}
}

func TestOpenAISendsSeedAndTemperature(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Text("a"), modeltest.Text("b"))
	c := newClient(t, srv.Config())
	for _, o := range []model.Options{{}, {Seed: 9, Temperature: 0.7, TopP: 0.8, MaxReplyTokens: 256}} {
		req := userRequest("hi")
		req.Options = o
		if _, err := c.Chat(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if o := reqs[0].Options; o["seed"] != float64(0) || o["temperature"] != float64(0) || o["top_p"] != nil || o["max_tokens"] != nil {
		t.Errorf("zero options on the wire: %s", reqs[0].Body)
	}
	if o := reqs[1].Options; o["seed"] != float64(9) || o["temperature"] != 0.7 || o["top_p"] != 0.8 || o["max_tokens"] != float64(256) {
		t.Errorf("options on the wire: %s", reqs[1].Body)
	}
	if reqs[0].Think == nil || *reqs[0].Think {
		t.Errorf("enable_thinking not sent false: %s", reqs[0].Body)
	}
}

func TestOpenAIToolCallsKeptRaw(t *testing.T) {
	srv := modeltest.NewOpenAI(t,
		modeltest.Calls(modeltest.Call("read_file", `{"path":"slugify.py"}`), modeltest.Call("edit_file", `{"path": "x", "old": `)),
		modeltest.Text("done"),
	)
	c := newClient(t, srv.Config())
	req := userRequest("fix")
	req.Tools = fileTools
	resp, err := c.Chat(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 || calls[0].Name != "read_file" || calls[0].Arguments != `{"path":"slugify.py"}` || calls[0].ID == "" {
		t.Fatalf("calls = %+v", calls)
	}
	if calls[1].Arguments != `{"path": "x", "old": ` {
		t.Errorf("malformed arguments not kept raw: %q", calls[1].Arguments)
	}
	if resp.DoneReason != "tool_calls" {
		t.Errorf("finish_reason = %q", resp.DoneReason)
	}
	// Send the results back, answering each call by id.
	req.Messages = append(req.Messages, resp.Message,
		model.Message{Role: model.RoleTool, ToolName: "read_file", ToolCallID: calls[0].ID, Content: "import re"},
		model.Message{Role: model.RoleTool, ToolName: "edit_file", ToolCallID: calls[1].ID, Content: "error: arguments are not valid JSON"},
	)
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	sent := srv.Requests()[1]
	if got := strings.Join(sent.Tools, ","); got != "read_file,write_file,run_tests" {
		t.Errorf("tools = %s", got)
	}
	msgs := sent.Messages
	if len(msgs) != 5 || len(msgs[2].ToolCalls) != 2 || msgs[2].ToolCalls[1].Arguments != calls[1].Arguments {
		t.Fatalf("history on the wire = %+v", msgs)
	}
	if msgs[3].Role != "tool" || msgs[3].ToolCallID != calls[0].ID || msgs[4].ToolCallID != calls[1].ID {
		t.Errorf("tool results = %+v", msgs[3:])
	}
}

func TestOpenAIErrors(t *testing.T) {
	t.Run("404", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.StatusText(404, "model 'nope' not found"))
		_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrModelNotFound) || len(srv.Requests()) != 1 {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("500 twice", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Status(500), modeltest.Status(502), modeltest.Text("ok"))
		resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if err != nil || resp.Retries != 2 {
			t.Fatalf("err=%v retries=%d", err, resp.Retries)
		}
	})
	t.Run("500 forever", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Always(modeltest.Status(500)))
		cfg := srv.Config()
		cfg.MaxRetries = 2
		_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrServer) || len(srv.Requests()) != 3 {
			t.Fatalf("err=%v after %d requests", err, len(srv.Requests()))
		}
	})
	t.Run("dropped", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Drop(), modeltest.Text("ok"))
		resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if err != nil || resp.Retries != 1 {
			t.Fatalf("err=%v retries=%d", err, resp.Retries)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Raw("<html>oops</html>"))
		_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrBadReply) {
			t.Fatalf("err = %v, want ErrBadReply", err)
		}
	})
	t.Run("no choices", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Raw(`{"id":"x","object":"chat.completion","choices":[]}`))
		_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrBadReply) || !strings.Contains(err.Error(), "no choices") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Always(modeltest.Hang()))
		cfg := srv.Config()
		cfg.Timeout = 80 * time.Millisecond
		_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrTimeout) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		srv := modeltest.NewOpenAI(t, modeltest.Hang())
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(30*time.Millisecond, cancel)
		_, err := newClient(t, srv.Config()).Chat(ctx, userRequest("hi"))
		if !errors.Is(err, model.ErrInterrupted) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		addr := closedPort(t)
		_, err := newClient(t, model.Config{Backend: model.BackendOpenAI, Host: addr, Model: "m", RetryWindow: -1}).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrUnreachable) || !strings.Contains(err.Error(), "http://"+addr+"/v1") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestOpenAIInspect(t *testing.T) {
	srv := modeltest.NewOpenAI(t)
	srv.SetModels(modeltest.Model{Name: "mlx-community/Qwen3-8B-4bit"}, modeltest.Model{Name: "qwen3:8b"})
	info, err := newClient(t, srv.Config()).Inspect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !info.HasModel || !info.Tools || info.Version != "" || len(info.Models) != 2 || info.Models[0] != "mlx-community/Qwen3-8B-4bit" {
		t.Errorf("info = %+v", info)
	}
}

func TestBaseURL(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	t.Setenv("OPENAI_BASE_URL", "")
	cases := []struct {
		cfg  model.Config
		want string
	}{
		{model.Config{}, "http://127.0.0.1:11434"},
		{model.Config{Host: "10.0.0.5:11434"}, "http://10.0.0.5:11434"},
		{model.Config{Host: "https://box:443/"}, "https://box:443"},
		{model.Config{Backend: "openai"}, "http://127.0.0.1:8080/v1"},
		{model.Config{Backend: "openai", Host: "localhost:8000"}, "http://localhost:8000/v1"},
		{model.Config{Backend: "openai", Host: "http://h:1/api/v1"}, "http://h:1/api/v1"},
	}
	for _, c := range cases {
		got, err := c.cfg.BaseURL()
		if err != nil || got != c.want {
			t.Errorf("%+v: %q %v, want %q", c.cfg, got, err, c.want)
		}
	}
	if _, err := (model.Config{Backend: "llamafile"}).BaseURL(); err == nil || !strings.Contains(err.Error(), "ollama or openai") {
		t.Errorf("unknown backend: %v", err)
	}
	if _, err := model.New(model.Config{Host: "ftp://x"}); err == nil || !strings.Contains(err.Error(), "bad server address") {
		t.Errorf("bad host: %v", err)
	}
}
