package model_test

import (
	"fmt"
	"strings"
	"testing"

	"bench/model"
	"bench/model/tokens"
)

func TestEstimateCountsEverything(t *testing.T) {
	e, err := model.NewEstimator("")
	if err != nil {
		t.Fatal(err)
	}
	base := userRequest("fix the bug")
	n0 := e.Request(base)
	withTools := base
	withTools.Tools = fileTools
	n1 := e.Request(withTools)
	if n1 <= n0 {
		t.Errorf("tools add nothing: %d vs %d", n1, n0)
	}
	if again := e.Request(withTools); again != n1 {
		t.Errorf("not deterministic: %d then %d", n1, again)
	}
	c, _ := tokens.New(tokens.CL100K)
	reply := model.Message{Role: model.RoleAssistant, Content: "Here it is.", ToolCalls: []model.ToolCall{{Name: "run_tests", Arguments: "{}"}}}
	if got, want := e.Reply(reply), c.Count("Here it is.")+c.Count("run_tests")+c.Count("{}"); got != want {
		t.Errorf("reply estimate = %d, want %d", got, want)
	}
	if e.Encoding() != tokens.CL100K {
		t.Errorf("default encoding %q", e.Encoding())
	}
	o, err := model.NewEstimator(tokens.O200K)
	if err != nil || o.Encoding() != tokens.O200K {
		t.Fatalf("o200k: %v", err)
	}
	if _, err := model.NewEstimator("p50k"); err == nil {
		t.Error("unknown encoding accepted")
	}
}

// prompt100KB is a deterministic ~100 KB prompt of code and prose.
func prompt100KB() string {
	var b strings.Builder
	for i := 0; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, "def parse_%d(text):\n    \"\"\"Parse item %d of the report, or raise ValueError.\"\"\"\n    parts = text.split('-')\n    return int(parts[%d %% 3]) + %d\n\n", i, i, i, i*7)
		fmt.Fprintf(&b, "Test %d failed: AssertionError: datetime.date(2024, 2, %d) != datetime.date(2024, 3, %d)\n", i, i%28+1, i%28+1)
	}
	return b.String()
}

func BenchmarkEstimate100KB(b *testing.B) {
	req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: prompt100KB()}}, Tools: fileTools}
	size := len(req.Messages[0].Content)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		e, err := model.NewEstimator("") // a fresh memo: this measures encoding, not recall
		if err != nil {
			b.Fatal(err)
		}
		n = e.Request(req)
	}
	b.ReportMetric(float64(n), "tokens/op")
	b.ReportMetric(float64(size)/(b.Elapsed().Seconds()/float64(b.N))/1e6, "MB/s")
}

// BenchmarkEstimateConversation estimates the requests of a 25-call agent
// episode, each resending the history plus a 2 KB tool result, as the
// client does on every call.
func BenchmarkEstimateConversation(b *testing.B) {
	result := prompt100KB()[:2<<10]
	b.ReportAllocs()
	for b.Loop() {
		e, err := model.NewEstimator("")
		if err != nil {
			b.Fatal(err)
		}
		req := model.Request{Messages: []model.Message{{Role: model.RoleSystem, Content: "You fix code."}}, Tools: fileTools}
		for call := range 25 {
			req.Messages = append(req.Messages, model.Message{Role: model.RoleTool, ToolName: "read_file", Content: fmt.Sprint(call) + result})
			e.Request(req)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/25, "ns/call")
}
