package model_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"bench/record"

	"bench/model"
	"bench/model/modeltest"
)

func newClient(t *testing.T, cfg model.Config) model.Client {
	t.Helper()
	c, err := model.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func userRequest(text string) model.Request {
	return model.Request{Messages: []model.Message{
		{Role: model.RoleSystem, Content: "You fix bugs."},
		{Role: model.RoleUser, Content: text},
	}}
}

var fileTools = []model.Tool{
	{Name: "read_file", Description: "Read a file.", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
	{Name: "write_file", Description: "Write a file.", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`)},
	{Name: "run_tests", Description: "Run the tests."},
}

func TestOllamaAssemblesStreamedText(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("The bug is on line three, fixed now.").WithUsage(412, 9).WithDuration(1500*time.Millisecond))
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("fix it"))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Message.Content; got != "The bug is on line three, fixed now." {
		t.Errorf("content = %q", got)
	}
	if resp.Message.Role != model.RoleAssistant || len(resp.Message.ToolCalls) != 0 {
		t.Errorf("message = %+v", resp.Message)
	}
	if resp.Usage.PromptTokens != 412 || resp.Usage.CompletionTokens != 9 {
		t.Errorf("usage = %+v, want prompt_eval_count 412, eval_count 9", resp.Usage)
	}
	if resp.ModelTime != 1500*time.Millisecond {
		t.Errorf("ModelTime = %v, want total_duration 1.5s", resp.ModelTime)
	}
	if resp.Usage.EstPromptTokens <= 0 || resp.Usage.EstCompletionTokens <= 0 {
		t.Errorf("estimate not filled: %+v", resp.Usage)
	}
	if resp.DoneReason != "stop" || resp.Retries != 0 || resp.Wall <= 0 {
		t.Errorf("done=%q retries=%d wall=%v", resp.DoneReason, resp.Retries, resp.Wall)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !reqs[0].Stream || reqs[0].Model != modeltest.DefaultModel {
		t.Fatalf("requests = %+v", reqs)
	}
}

func TestOllamaToolCallsKeepArgumentOrder(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Calls(
		modeltest.Call("write_file", `{"path":"leap.py","content":"def is_leap(y):\n    return y % 4 == 0 and y > 0 && \"<b>\"\n"}`),
		modeltest.Call("run_tests", `{}`),
	).WithText("Writing the fix."))
	req := userRequest("fix it")
	req.Tools = fileTools
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 || calls[0].Name != "write_file" || calls[1].Name != "run_tests" {
		t.Fatalf("tool calls = %+v", calls)
	}
	if want := `{"path":"leap.py","content":"def is_leap(y):\n    return y % 4 == 0 and y > 0 && \"<b>\"\n"}`; calls[0].Arguments != want {
		t.Errorf("arguments = %s, want %s", calls[0].Arguments, want)
	}
	if calls[1].Arguments != `{}` {
		t.Errorf("empty arguments = %q", calls[1].Arguments)
	}
	if resp.Message.Content != "Writing the fix." {
		t.Errorf("content = %q", resp.Message.Content)
	}
	if got := strings.Join(srv.Requests()[0].Tools, ","); got != "read_file,write_file,run_tests" {
		t.Errorf("tools sent = %s, want the given order", got)
	}
}

func TestOllamaSendsSamplingOptionsEveryTime(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("a"), modeltest.Text("b"), modeltest.Text("c"))
	c := newClient(t, srv.Config())
	opts := []model.Options{
		{}, // zeros must still be sent
		{Seed: 7, Temperature: 0.2, TopP: 0.9, NumCtx: 4096, MaxReplyTokens: 512},
		{Seed: 1, Think: true},
	}
	for _, o := range opts {
		req := userRequest("hi")
		req.Options = o
		if _, err := c.Chat(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		for _, k := range []string{"seed", "temperature", "num_ctx"} {
			if _, ok := r.Options[k]; !ok {
				t.Errorf("request %d: options.%s missing: %s", i, k, r.Body)
			}
		}
		if r.Think == nil {
			t.Errorf("request %d: think not sent", i)
		}
	}
	if reqs[0].Options["num_ctx"] != float64(record.DefaultNumCtx) || reqs[0].Options["seed"] != float64(0) {
		t.Errorf("defaults: %v", reqs[0].Options)
	}
	if _, ok := reqs[0].Options["top_p"]; ok {
		t.Errorf("top_p sent though zero")
	}
	if _, ok := reqs[0].Options["num_predict"]; ok {
		t.Errorf("num_predict sent though zero")
	}
	if *reqs[0].Think {
		t.Errorf("think on by default")
	}
	o := reqs[1].Options
	if o["seed"] != float64(7) || o["temperature"] != 0.2 || o["top_p"] != 0.9 || o["num_ctx"] != float64(4096) || o["num_predict"] != float64(512) {
		t.Errorf("options = %v", o)
	}
	if !*reqs[2].Think {
		t.Errorf("think not on when asked")
	}
}

func TestOllamaSendsToolHistory(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("done"))
	req := model.Request{Tools: fileTools, Messages: []model.Message{
		{Role: model.RoleUser, Content: "fix"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{Name: "read_file", Arguments: `{"path":"a.py"}`}}},
		{Role: model.RoleTool, ToolName: "read_file", Content: "print(1)"},
	}}
	if _, err := newClient(t, srv.Config()).Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0].Messages
	if len(got) != 3 || got[1].ToolCalls[0].Arguments != `{"path":"a.py"}` || got[2].ToolName != "read_file" || got[2].Content != "print(1)" {
		t.Errorf("messages on the wire = %+v", got)
	}
}

func TestOllamaModelNotFoundSaysPull(t *testing.T) {
	srv := modeltest.NewOllama(t)
	cfg := srv.Config()
	cfg.Model = "llama9:70b"
	_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrModelNotFound) {
		t.Fatalf("err = %v, want ErrModelNotFound", err)
	}
	if !strings.Contains(err.Error(), "ollama pull llama9:70b") {
		t.Errorf("message %q lacks the pull hint", err)
	}
	var e *model.Error
	if !errors.As(err, &e) || e.Retries != 0 {
		t.Errorf("a 404 was retried: %+v", e)
	}
}

func TestOllamaRetriesServerErrors(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Status(500), modeltest.StatusText(503, "loading"), modeltest.Text("ok"))
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Retries != 2 || resp.Message.Content != "ok" || len(srv.Requests()) != 3 {
		t.Errorf("retries=%d content=%q requests=%d", resp.Retries, resp.Message.Content, len(srv.Requests()))
	}
}

func TestOllamaGivesUpAfterMaxRetries(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.StatusText(500, "runner crashed")))
	start := time.Now()
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrServer) {
		t.Fatalf("err = %v, want ErrServer", err)
	}
	if n := len(srv.Requests()); n != 4 || resp.Retries != 3 {
		t.Errorf("requests=%d retries=%d, want 1 try + 3 retries", n, resp.Retries)
	}
	if !strings.Contains(err.Error(), "gave up after 3 retries") || !strings.Contains(err.Error(), "runner crashed") {
		t.Errorf("message = %q", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestOllamaDoesNotRetryClientErrors(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.StatusText(400, "invalid options"), modeltest.Text("never"))
	_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrRequest) || len(srv.Requests()) != 1 {
		t.Fatalf("err = %v after %d requests", err, len(srv.Requests()))
	}
}

func TestOllamaRetriesDroppedConnection(t *testing.T) {
	dropped := modeltest.NewOllama(t, modeltest.Drop().WithText("partial text"), modeltest.Text("ok"))
	resp, err := newClient(t, dropped.Config()).Chat(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Retries != 1 || resp.Message.Content != "ok" {
		t.Errorf("retries=%d content=%q: a dropped stream must be retried, not half-assembled", resp.Retries, resp.Message.Content)
	}
}

func TestOllamaNoToolSupport(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("never"))
	srv.SetModels(modeltest.Model{Name: modeltest.DefaultModel, Capabilities: []string{"completion"}})
	req := userRequest("hi")
	req.Tools = fileTools
	_, err := newClient(t, srv.Config()).Chat(context.Background(), req)
	if !errors.Is(err, model.ErrNoToolSupport) {
		t.Fatalf("err = %v, want ErrNoToolSupport", err)
	}
}

func TestOllamaTimeout(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Text("late").After(5*time.Second)))
	cfg := srv.Config()
	cfg.Timeout = 100 * time.Millisecond
	start := time.Now()
	_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrTimeout) || errors.Is(err, model.ErrInterrupted) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "100ms") {
		t.Errorf("message %q does not name the limit", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

func TestOllamaCancelIsInterrupted(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Hang())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := newClient(t, srv.Config()).Chat(ctx, userRequest("hi"))
	if !errors.Is(err, model.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrInterrupted matching context.Canceled", err)
	}
	if errors.Is(err, model.ErrTimeout) || errors.Is(err, model.ErrServer) {
		t.Errorf("cancel classified twice: %v", err)
	}
}

// closedPort returns the address of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestOllamaUnreachable(t *testing.T) {
	addr := closedPort(t)
	c := newClient(t, model.Config{Host: addr, Model: "qwen3:8b", RetryBase: time.Millisecond, RetryWindow: 200 * time.Millisecond})
	start := time.Now()
	_, err := c.Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	for _, want := range []string{"http://" + addr, "ollama serve", "OLLAMA_HOST", "--backend openai"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if _, err := c.Inspect(context.Background()); !errors.Is(err, model.ErrUnreachable) {
		t.Errorf("Inspect: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v to notice a down host", d)
	}
}

func TestOllamaGarbageBody(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Raw("<html>502 Bad Gateway</html>\n"))
	_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrBadReply) {
		t.Fatalf("err = %v, want ErrBadReply", err)
	}
	if !strings.Contains(err.Error(), "cannot read") || !strings.Contains(err.Error(), "<html>502") {
		t.Errorf("message %q", err)
	}
}

func TestOllamaInStreamErrorIsServerError(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Raw(`{"error":"llama runner process has terminated"}`+"\n"), modeltest.Text("ok"))
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if err != nil || resp.Retries != 1 {
		t.Fatalf("err=%v retries=%d: an in-stream server error is retried", err, resp.Retries)
	}
}

func TestOllamaBadToolSchema(t *testing.T) {
	srv := modeltest.NewOllama(t)
	req := userRequest("hi")
	req.Tools = []model.Tool{{Name: "edit_file", Parameters: []byte(`{"type":`)}}
	_, err := newClient(t, srv.Config()).Chat(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), `tool "edit_file"`) {
		t.Fatalf("err = %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("a bad request was sent")
	}
}

func TestOllamaHostFromEnvironment(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("hello"))
	t.Setenv("OLLAMA_HOST", strings.TrimPrefix(srv.URL, "http://"))
	cfg := srv.Config()
	cfg.Host = ""
	resp, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	if err != nil || resp.Message.Content != "hello" {
		t.Fatalf("resp=%+v err=%v", resp, err)
	}
}

func TestOllamaInspect(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.SetModels(
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:abc", Capabilities: []string{"completion", "tools"}},
		modeltest.Model{Name: "gemma:2b", Digest: "sha256:def", Capabilities: []string{"completion"}},
	)
	cfg := srv.Config()
	info, err := newClient(t, cfg).Inspect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version != "0.17.4" || !info.HasModel || info.Digest != "sha256:abc" || !info.Tools {
		t.Errorf("info = %+v", info)
	}
	if strings.Join(info.Models, ",") != "gemma:2b,qwen3:8b" {
		t.Errorf("models = %v, want sorted", info.Models)
	}
	cfg.Model = "gemma:2b"
	if info, err = newClient(t, cfg).Inspect(context.Background()); err != nil || info.Tools || !info.HasModel {
		t.Errorf("gemma: %+v %v", info, err)
	}
	cfg.Model = "missing"
	if info, err = newClient(t, cfg).Inspect(context.Background()); err != nil || info.HasModel {
		t.Errorf("missing: %+v %v", info, err)
	}
}

// TestOllamaOlderServerRefusingThink: an older Ollama answers 400 to any
// "think" field for a model that cannot think; the client asks again once
// without the field.
func TestOllamaOlderServerRefusingThink(t *testing.T) {
	srv := modeltest.NewOllama(t,
		modeltest.StatusText(400, `"qwen2.5-coder:7b" does not support thinking`),
		modeltest.Text("fixed"))
	resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("fix it"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "fixed" || resp.Retries != 1 {
		t.Errorf("content %q, retries %d; want the second answer after one retry", resp.Message.Content, resp.Retries)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Think == nil || *reqs[0].Think || reqs[1].Think != nil {
		t.Fatalf("requests' think: want false then absent, got %d requests", len(reqs))
	}
}

// TestOllamaThinkRefusedWhenAskedIsAnError: with --think the refusal is the
// answer; nothing is resent.
func TestOllamaThinkRefusedWhenAskedIsAnError(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.StatusText(400, `"qwen2.5-coder:7b" does not support thinking`))
	req := userRequest("fix it")
	req.Options.Think = true
	_, err := newClient(t, srv.Config()).Chat(context.Background(), req)
	if !errors.Is(err, model.ErrNoThinking) || !strings.Contains(err.Error(), "cannot think: drop --think") {
		t.Fatalf("err = %v, want the server's refusal", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}
