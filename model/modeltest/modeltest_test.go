package modeltest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"bench/model"
	"bench/model/modeltest"
)

func ollamaAPI(t *testing.T, srv *modeltest.Server) *api.Client {
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return api.NewClient(u, http.DefaultClient)
}

func TestOllamaFakeNonStreamed(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Calls(modeltest.Call("list_files", `{"path":"."}`)).WithText("looking").WithUsage(5, 3))
	stream := false
	var chunks []api.ChatResponse
	err := ollamaAPI(t, srv).Chat(context.Background(), &api.ChatRequest{
		Model: modeltest.DefaultModel, Stream: &stream,
		Messages: []api.Message{{Role: "user", Content: "hi"}},
	}, func(r api.ChatResponse) error { chunks = append(chunks, r); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 1 || !chunks[0].Done || chunks[0].Message.Content != "looking" || chunks[0].PromptEvalCount != 5 || chunks[0].EvalCount != 3 {
		t.Fatalf("chunks = %+v", chunks)
	}
	tc := chunks[0].Message.ToolCalls
	if len(tc) != 1 || tc[0].Function.Name != "list_files" || tc[0].Function.Arguments.String() != `{"path":"."}` {
		t.Errorf("tool calls = %+v", tc)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Stream || r[0].Last().Content != "hi" {
		t.Errorf("recorded = %+v", r)
	}
}

func TestOllamaFakeStreamsInPieces(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("one two three"))
	var n int
	err := ollamaAPI(t, srv).Chat(context.Background(), &api.ChatRequest{Model: modeltest.DefaultModel},
		func(r api.ChatResponse) error { n++; return nil })
	if err != nil || n != 4 {
		t.Fatalf("err=%v chunks=%d, want 3 text chunks and a final one", err, n)
	}
}

func TestFuncSeesTheRequest(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		return modeltest.Text(fmt.Sprintf("call %d: %s", r.N, r.Last().Content))
	})))
	c, err := model.New(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range []string{"a", "b"} {
		resp, err := c.Chat(context.Background(), model.Request{Messages: []model.Message{{Role: "user", Content: q}}})
		if err != nil || resp.Message.Content != fmt.Sprintf("call %d: %s", i, q) {
			t.Fatalf("%q: %+v %v", q, resp.Message, err)
		}
	}
	if srv.Remaining() != 1 {
		t.Errorf("an Always reply was consumed")
	}
}

// recordingTB captures the fake's complaints instead of failing this test.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestExhaustedScriptFailsTheTest(t *testing.T) {
	tb := &recordingTB{TB: t}
	srv := modeltest.NewOllama(tb, modeltest.Text("only one"))
	cfg := srv.Config()
	cfg.MaxRetries = -1
	c, _ := model.New(cfg)
	req := model.Request{Messages: []model.Message{{Role: "user", Content: "x"}}}
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	_, err := c.Chat(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "script exhausted") {
		t.Errorf("second call: %v", err)
	}
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "script exhausted") {
		t.Errorf("fake reported %q", tb.errs)
	}
}

func TestReplyHeadersAreSent(t *testing.T) {
	for _, srv := range []*modeltest.Server{
		modeltest.NewOllama(t, modeltest.Status(429).WithHeader("Retry-After", "7")),
		modeltest.NewOpenAI(t, modeltest.Status(429).WithHeader("Retry-After", "7")),
	} {
		path := "/api/chat"
		if srv.Config().Backend == model.BackendOpenAI {
			path = "/v1/chat/completions"
		}
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(`{"model":"qwen3:8b","messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" {
			t.Errorf("%s: status %d, Retry-After %q", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
}

func TestTrickleSendsTheBodySlowly(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Text("hi").Trickle(2*time.Millisecond))
	start := time.Now()
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !strings.Contains(string(body), `"content":"hi"`) {
		t.Fatalf("body %q, err %v", body, err)
	}
	// Every byte waited 2 ms: the body cannot have come faster than that.
	if min := time.Duration(len(body)) * 2 * time.Millisecond; time.Since(start) < min {
		t.Errorf("%d bytes in %v, less than %v", len(body), time.Since(start), min)
	}
}

func TestHugeReplies(t *testing.T) {
	const n = 200_000
	srv := modeltest.NewOllama(t, modeltest.Huge(n))
	var text strings.Builder
	err := ollamaAPI(t, srv).Chat(context.Background(), &api.ChatRequest{Model: modeltest.DefaultModel},
		func(r api.ChatResponse) error { text.WriteString(r.Message.Content); return nil })
	if err != nil || text.Len() != n || strings.Trim(text.String(), "x ") != "" {
		t.Fatalf("err %v, %d bytes", err, text.Len())
	}
	osrv := modeltest.NewOpenAI(t, modeltest.Huge(n))
	resp, err := osrv.Client(t).Chat(context.Background(), model.Request{Messages: []model.Message{{Role: "user", Content: "hi"}}})
	if err != nil || len(resp.Message.Content) != n {
		t.Fatalf("openai: err %v, %d bytes", err, len(resp.Message.Content))
	}
}
