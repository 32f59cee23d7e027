package workflow

import (
	"strings"
	"testing"

	"bench/workflow/replytext"
)

// TestNaiveFallbackDropsThinking: without a marker and without a code block,
// the naive fallback writes the whole reply, but not the model's reasoning.
func TestNaiveFallbackDropsThinking(t *testing.T) {
	r := replytext.Parse("<think>\nlet me see\n</think>\n\nx = 1\n")
	if r.HasMarker || len(r.Blocks) != 0 || r.Text != "x = 1\n" {
		t.Errorf("got %+v", r)
	}
}

// TestUnclosedFenceIsACutOffReply: the naive path writes the code without
// the fence line; the strict path rejects the reply as cut off.
func TestUnclosedFenceIsACutOffReply(t *testing.T) {
	r := replytext.Parse("FILE: calc.py\n```python\ndef add(a, b):\n    return a +")
	if !r.Unclosed || len(r.AfterMark) != 1 || strings.Contains(r.AfterMark[0], "```") {
		t.Errorf("got %+v", r)
	}
	if _, problem := strict("calc.py", r, false); !strings.Contains(problem, "cut off") {
		t.Errorf("strict problem = %q, want one saying the reply is cut off", problem)
	}
}
