package model

import "testing"

// TestEstimatorMemoKeepsCounts: a remembered count is the count.
func TestEstimatorMemoKeepsCounts(t *testing.T) {
	req := Request{Messages: []Message{
		{Role: RoleSystem, Content: "You fix code."},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "read_file", Arguments: `{"path":"leap.py"}`}}},
		{Role: RoleTool, ToolName: "read_file", Content: "def is_leap(year):\n    return year % 4 == 0 and year % 100 != 0\n"},
	}}
	e, err := NewEstimator("")
	if err != nil {
		t.Fatal(err)
	}
	first, again := e.Request(req), e.Request(req)
	fresh, _ := NewEstimator("")
	if first <= 0 || again != first || fresh.Request(req) != first {
		t.Fatalf("estimates %d, %d and fresh %d; want one positive figure", first, again, fresh.Request(req))
	}
}

// TestEstimatorMemoBounded: past memoMaxBytes the memo starts afresh.
func TestEstimatorMemoBounded(t *testing.T) {
	e, err := NewEstimator("")
	if err != nil {
		t.Fatal(err)
	}
	e.count("an earlier text")
	e.memoBytes = memoMaxBytes
	if n := e.count("a new text"); n <= 0 {
		t.Fatalf("count = %d", n)
	}
	if len(e.memo) != 1 || e.memoBytes != len("a new text") {
		t.Fatalf("memo holds %d texts, %d bytes; want only the new one", len(e.memo), e.memoBytes)
	}
}
