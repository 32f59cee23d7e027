package model

import (
	"strings"
	"testing"
)

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
	if n, _ := e.count("a new text"); n <= 0 {
		t.Fatalf("count = %d", n)
	}
	if len(e.memo) != 1 || e.memoBytes != len("a new text") {
		t.Fatalf("memo holds %d texts, %d bytes; want only the new one", len(e.memo), e.memoBytes)
	}
}

// TestEstimateOfAHugeTextIsBounded: a text past EstExactBytes is counted on
// its start and extrapolated, and says so; a text within it is exact.
func TestEstimateOfAHugeTextIsBounded(t *testing.T) {
	e, err := NewEstimator("")
	if err != nil {
		t.Fatal(err)
	}
	line := "func main() { fmt.Println(\"héllo\") } // ünïcode\n"
	exact := strings.Repeat(line, EstExactBytes/len(line))
	n, extra := e.count(exact)
	if extra || n != e.c.Count(exact) {
		t.Fatalf("a text within the bound: %d (extrapolated %v), exact %d", n, extra, e.c.Count(exact))
	}
	huge := strings.Repeat(line, 40*EstExactBytes/len(line)) // 10 MB: a minute to count exactly on a loaded machine
	n, extra = e.count(huge)
	per := float64(e.c.Count(line)) / float64(len(line))
	if want := per * float64(len(huge)); !extra || float64(n) < 0.95*want || float64(n) > 1.05*want {
		t.Fatalf("a huge text: %d (extrapolated %v), want about %.0f", n, extra, want)
	}
	if _, ok := e.seen[idOf(huge)]; ok {
		t.Error("the memo keeps a huge text")
	}
	resp := Response{Message: Message{Content: huge}}
	e.fill(Request{}, &resp)
	if !resp.Usage.EstExtrapolated || !(resp.Usage.Add(Usage{})).EstExtrapolated {
		t.Error("the usage does not say its estimate is extrapolated")
	}
}
