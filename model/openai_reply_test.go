package model_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"bench/model"
)

// answer is one HTTP answer a raw fake server gives.
type answer struct {
	status int
	header map[string]string
	body   string
}

// rawOpenAI is a server answering every request with a, as servers in
// front of or instead of an OpenAI-compatible one may.
func rawOpenAI(t *testing.T, a answer) model.Config {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	return model.Config{Backend: model.BackendOpenAI, Host: srv.URL, Model: "m", MaxRetries: -1, RetryWindow: -1}
}

var jsonHeader = map[string]string{"Content-Type": "application/json"}

// completion wraps a first choice's message (and what follows it) in a completion.
func completion(choice, usage string) string {
	s := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[` + choice + `]`
	if usage != "" {
		s += `,"usage":` + usage
	}
	return s + "}"
}

// TestOpenAIReplyFailures: every unreadable or refused answer becomes its
// kind, with the server's words or bench's where they say more.
func TestOpenAIReplyFailures(t *testing.T) {
	cases := []struct {
		name   string
		a      answer
		kind   error
		status int
		want   []string
	}{
		{"truncated JSON", answer{200, jsonHeader, `{"id":"x","choices":[`}, model.ErrBadReply, 0,
			[]string{"sent a reply bench cannot read", "expected a chat completion in JSON"}},
		{"HTML page", answer{200, map[string]string{"Content-Type": "text/html"}, "<html>oops</html>"}, model.ErrBadReply, 0,
			[]string{"expected a chat completion in JSON"}},
		{"empty body", answer{200, jsonHeader, ""}, model.ErrBadReply, 0, nil},
		{"no choices", answer{200, jsonHeader, completion("", `{"prompt_tokens":1,"completion_tokens":1}`)}, model.ErrBadReply, 0,
			[]string{"no choices"}},
		{"OpenAI error 400", answer{400, jsonHeader, `{"error":{"message":"seed must be an integer","type":"invalid_request_error","param":null,"code":null}}`},
			model.ErrRequest, 400, []string{"HTTP 400: seed must be an integer"}},
		{"HTML 502", answer{502, map[string]string{"Content-Type": "text/html"}, "<html><body><h1>502 Bad Gateway</h1></body></html>"},
			model.ErrServer, 502, []string{"HTTP 502"}},
		{"error string 500", answer{500, jsonHeader, `{"error":"CUDA out of memory"}`}, model.ErrServer, 500,
			[]string{"HTTP 500: CUDA out of memory"}},
		{"FastAPI 404", answer{404, jsonHeader, `{"detail":"Not Found"}`}, model.ErrModelNotFound, 404, nil},
		{"plain text 503", answer{503, map[string]string{"Content-Type": "text/plain"}, "upstream connect error\n"}, model.ErrServer, 503,
			[]string{"HTTP 503: upstream connect error"}},
		{"content neither text nor parts", answer{200, jsonHeader, completion(`{"index":0,"message":{"role":"assistant","content":7},"finish_reason":"stop"}`, "")},
			model.ErrBadReply, 0, []string{"content is neither text nor a list of text parts"}},
		{"401", answer{401, jsonHeader, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`},
			model.ErrAuth, 401, []string{"Incorrect API key provided", "OPENAI_API_KEY"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := newClient(t, rawOpenAI(t, c.a)).Chat(context.Background(), userRequest("hi"))
			var e *model.Error
			if !errors.As(err, &e) || !errors.Is(err, c.kind) || e.Status != c.status {
				t.Fatalf("err = %v (%+v), want %v with status %d", err, e, c.kind, c.status)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestOpenAIRetryAfter: a 429 or 503 keeps the wait its Retry-After asks,
// in seconds or as an HTTP date.
func TestOpenAIRetryAfter(t *testing.T) {
	for _, c := range []struct {
		status int
		after  string
		min    time.Duration
	}{
		{429, "7", 7 * time.Second},
		{503, time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat), 28 * time.Second},
	} {
		h := map[string]string{"Content-Type": "application/json", "Retry-After": c.after}
		_, err := newClient(t, rawOpenAI(t, answer{c.status, h, `{"error":{"message":"busy"}}`})).Chat(context.Background(), userRequest("hi"))
		var e *model.Error
		if !errors.As(err, &e) || e.Kind != model.ErrServer || e.Status != c.status || e.RetryAfter < c.min || e.RetryAfter > c.min+3*time.Second {
			t.Errorf("%d Retry-After %q: err = %v (%+v)", c.status, c.after, err, e)
		}
	}
}

// TestOpenAIReplyShapes: the shapes servers give a readable completion in.
func TestOpenAIReplyShapes(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		text  string
		calls []model.ToolCall
		usage model.Usage
		done  string
	}{
		{"null content with tool calls",
			completion(`{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.py\"}"}}]},"finish_reason":"tool_calls"}`, `{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}`),
			"", []model.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.py"}`}}, model.Usage{PromptTokens: 20, CompletionTokens: 5}, "tool_calls"},
		{"arguments as an object",
			completion(`{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":{"path":"a.py"}}}]},"finish_reason":"tool_calls"}`, `{"prompt_tokens":20,"completion_tokens":5}`),
			"", []model.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.py"}`}}, model.Usage{PromptTokens: 20, CompletionTokens: 5}, "tool_calls"},
		{"content as text parts",
			completion(`{"index":0,"message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"stop"}`, `{"prompt_tokens":2,"completion_tokens":1}`),
			"ab", nil, model.Usage{PromptTokens: 2, CompletionTokens: 1}, "stop"},
		{"null arguments, length cut",
			completion(`{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"run_tests","arguments":null}}]},"finish_reason":"length"}`, `{"prompt_tokens":2,"completion_tokens":1}`),
			"", []model.ToolCall{{ID: "c1", Name: "run_tests"}}, model.Usage{PromptTokens: 2, CompletionTokens: 1}, "length"},
		{"no usage",
			completion(`{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}`, ""),
			"hi", nil, model.Usage{}, "stop"},
		{"null usage and finish reason",
			completion(`{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":null}`, "null"),
			"hi", nil, model.Usage{}, "stop"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := newClient(t, rawOpenAI(t, answer{200, jsonHeader, c.body})).Chat(context.Background(), userRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			m := resp.Message
			if m.Role != model.RoleAssistant || m.Content != c.text || len(m.ToolCalls) != len(c.calls) {
				t.Fatalf("message = %+v", m)
			}
			for i, tc := range c.calls {
				if m.ToolCalls[i] != tc {
					t.Errorf("call %d = %+v, want %+v", i, m.ToolCalls[i], tc)
				}
			}
			if resp.Usage.PromptTokens != c.usage.PromptTokens || resp.Usage.CompletionTokens != c.usage.CompletionTokens || resp.Usage.EstPromptTokens == 0 {
				t.Errorf("usage = %+v", resp.Usage)
			}
			if resp.DoneReason != c.done {
				t.Errorf("done reason = %q, want %q", resp.DoneReason, c.done)
			}
		})
	}
}

// TestOpenAIInspectFailures: a model list that cannot be read, or is refused, is its kind.
func TestOpenAIInspectFailures(t *testing.T) {
	for _, c := range []struct {
		a    answer
		kind error
	}{
		{answer{200, jsonHeader, `{"object":"list","data":[`}, model.ErrBadReply},
		{answer{404, jsonHeader, `{"error":{"message":"not found"}}`}, model.ErrRequest},
		{answer{401, jsonHeader, `{"error":{"message":"bad key"}}`}, model.ErrAuth},
		{answer{500, map[string]string{"Content-Type": "text/plain"}, "internal error"}, model.ErrServer},
	} {
		_, err := newClient(t, rawOpenAI(t, c.a)).Inspect(context.Background())
		if !errors.Is(err, c.kind) {
			t.Errorf("%d %q: err = %v, want %v", c.a.status, c.a.body, err, c.kind)
		}
	}
}

// TestOpenAIInspectReadsABoundedList: a model list that never ends is
// read up to its cap and is ErrBadReply, not a reply past the reply cap.
func TestOpenAIInspectReadsABoundedList(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[`)
		item := strings.Repeat(`{"id":"m","object":"model"},`, 1<<10)
		for range 1 << 10 { // 27 MiB
			if _, err := io.WriteString(w, item); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	_, err := newClient(t, model.Config{Backend: model.BackendOpenAI, Host: srv.URL, Model: "m"}).Inspect(context.Background())
	if !errors.Is(err, model.ErrBadReply) || !strings.Contains(err.Error(), "the model list ran past") {
		t.Fatalf("err = %v", err)
	}
}
