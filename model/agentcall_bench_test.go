package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeChatTransport answers every request with one canned streamed reply,
// after reading the request's body as a real transport writes it to the
// socket: a benchmark through it measures bench's own work on a call.
type fakeChatTransport struct {
	reply []byte
	json  bool // the reply is one JSON object, not a stream
}

func (f fakeChatTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	kind := "application/x-ndjson"
	if f.json {
		kind = "application/json"
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {kind}},
		Body:    io.NopCloser(bytes.NewReader(f.reply)),
		Request: r,
	}, nil
}

// agentHistory is an agent conversation of turns turns, each a write_file
// call of a file of size bytes and its tool result of size bytes.
func agentHistory(turns, size int) []Message {
	line := "def f(x):\n    return x < 3 and x > 1 and \"a&b\"\n"
	body := strings.Repeat(line, size/len(line)+1)[:size]
	msgs := []Message{
		{Role: RoleSystem, Content: strings.Repeat("You fix bugs with tools. ", 40)},
		{Role: RoleUser, Content: "Fix the failing tests of leap_year."},
	}
	for i := range turns {
		args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("mod%d.py", i), "content": body})
		msgs = append(msgs,
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "write_file", Arguments: string(args)}}},
			Message{Role: RoleTool, ToolName: "write_file", ToolCallID: fmt.Sprintf("call_%d", i), Content: "ok: wrote " + body[:size/2]})
	}
	return msgs
}

// agentTools are tool specs the size of the agent's.
func agentTools() []Tool {
	var tools []Tool
	for _, name := range []string{"list_files", "read_file", "write_file", "edit_file", "run_tests"} {
		tools = append(tools, Tool{Name: name, Description: strings.Repeat("Does "+name+". ", 10),
			Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string","description":"a path"},"content":{"type":"string"}},"required":["path"]}`)})
	}
	return tools
}

// BenchmarkAgentCallByTurn is one Ollama chat call of an agent whose
// conversation has reached turn 1, 25 or 50, each earlier turn a 16 KB
// write_file call and a tool result, against a transport that answers at
// once: bench's own CPU per call (conversion, encoding, the estimate, the
// stream), which should not grow with the turn.
//
//	go test -run '^$' -bench AgentCallByTurn ./model/
func BenchmarkAgentCallByTurn(b *testing.B) {
	final := `{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"run_tests","arguments":{}}}]},"done":false}` + "\n" +
		`{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":9000,"eval_count":12}` + "\n"
	for _, turn := range []int{1, 25, 50} {
		b.Run(fmt.Sprintf("turn-%d", turn), func(b *testing.B) {
			cfg := Config{Host: "http://127.0.0.1:9", Model: "m", Timeout: time.Minute}.withDefaults()
			cfg.transport = fakeChatTransport{reply: []byte(final)}
			c, err := newOllama(cfg)
			if err != nil {
				b.Fatal(err)
			}
			req := Request{Messages: agentHistory(turn-1, 16<<10), Tools: agentTools(), Options: Options{Seed: 1, NumCtx: 32768, MaxReplyTokens: 4096}}
			req.Messages = append(req.Messages, Message{Role: RoleUser, Content: "go on"})
			if _, err := c.Chat(context.Background(), req); err != nil { // the conversation as the loop has seen it so far
				b.Fatal(err)
			}
			b.ReportAllocs()
			before := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.Chat(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-µs/call")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOpenAICallByTurn is BenchmarkAgentCallByTurn on the
// OpenAI-compatible client, whose request the official client encodes
// whole on every call.
func BenchmarkOpenAICallByTurn(b *testing.B) {
	reply := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"run_tests","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9000,"completion_tokens":12,"total_tokens":9012}}`
	for _, turn := range []int{1, 25, 50} {
		b.Run(fmt.Sprintf("turn-%d", turn), func(b *testing.B) {
			cfg := Config{Backend: BackendOpenAI, Host: "http://127.0.0.1:9/v1", Model: "m", Timeout: time.Minute}.withDefaults()
			cfg.transport = fakeChatTransport{reply: []byte(reply), json: true}
			c, err := newOpenAI(cfg)
			if err != nil {
				b.Fatal(err)
			}
			req := Request{Messages: agentHistory(turn-1, 16<<10), Tools: agentTools(), Options: Options{Seed: 1, NumCtx: 32768, MaxReplyTokens: 4096}}
			req.Messages = append(req.Messages, Message{Role: RoleUser, Content: "go on"})
			if _, err := c.Chat(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			before := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.Chat(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-µs/call")
		})
	}
}
