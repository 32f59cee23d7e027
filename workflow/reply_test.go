package workflow

import (
	"slices"
	"strings"
	"testing"
)

func TestParseReply(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		marker     bool
		path       string
		blocks     []string
		afterMark  int
		rest       string
	}{
		{"marker and block", "FILE: slugify.py\n```python\nimport re\n```\n", true, "slugify.py", []string{"import re\n"}, 1, ""},
		{"no marker", "Here is the fix:\n```python\ndef f():\n    pass\n```\nDone.", false, "", []string{"def f():\n    pass\n"}, 0, ""},
		{"no block", "Just change line 3.", false, "", nil, 0, ""},
		{"emphasised marker", "**FILE: `pkg/a.py`**\n~~~\nx = 1\n~~~", true, "pkg/a.py", []string{"x = 1\n"}, 1, ""},
		{"block before marker", "```\nold\n```\nFILE: a.py\n```\nnew\n```", true, "a.py", []string{"old\n", "new\n"}, 1, ""},
		{"marker without block", "FILE: a.py\nx = 1\n", true, "a.py", nil, 0, "x = 1\n"},
		{"two blocks", "FILE: a.py\n```\none\n```\n```\ntwo\n```", true, "a.py", []string{"one\n", "two\n"}, 2, ""},
		{"inner fence kept", "FILE: README.md\n````\n```\ncode\n```\n````", true, "README.md", []string{"```\ncode\n```\n"}, 1, ""},
		{"marker inside a block is code", "```\nFILE: a.py\n```", false, "", []string{"FILE: a.py\n"}, 0, ""},
		{"crlf", "FILE: a.py\r\n```\r\nx\r\n```\r\n", true, "a.py", []string{"x\n"}, 1, ""},
		{"bold marker, colon inside", "**FILE:** dateparse.py\n```python\nx\n```", true, "dateparse.py", []string{"x\n"}, 1, ""},
		{"title case, dot slash", "File: ./dateparse.py\n```py\nx\n```", true, "./dateparse.py", []string{"x\n"}, 1, ""},
		{"thinking is not the answer",
			"<think>\nMaybe FILE: other.py with\n```\ndraft\n```\n</think>\nFILE: a.py\n```python\nfinal\n```\n",
			true, "a.py", []string{"final\n"}, 1, ""},
		{"thinking, then no marker", "<think>FILE: b.py</think>\n\n```\nonly\n```", false, "", []string{"only\n"}, 0, ""},
		{"unclosed fence runs to the end", "FILE: a.py\n```python\nx = 1\n", true, "a.py", []string{"x = 1\n"}, 1, ""},
		{"think tags inside code are code", "FILE: tags.py\n```python\nOPEN = \"<think>\"\nCLOSE = \"</think>\"\n```\n", true, "tags.py",
			[]string{"OPEN = \"<think>\"\nCLOSE = \"</think>\"\n"}, 1, ""},
		{"unclosed think is kept", "<think>\nFILE: a.py\n```\nx\n```", true, "a.py", []string{"x\n"}, 1, ""},
	} {
		r := parseReply(tc.text)
		if r.HasMarker != tc.marker || r.Path != tc.path || !slices.Equal(r.Blocks, tc.blocks) || len(r.AfterMark) != tc.afterMark || r.Rest != tc.rest {
			t.Errorf("%s: got %+v", tc.name, r)
		}
	}
}

// TestNaiveFallbackDropsThinking: without a marker and without a code block,
// the naive fallback writes the whole reply, but not the model's reasoning.
func TestNaiveFallbackDropsThinking(t *testing.T) {
	r := parseReply("<think>\nlet me see\n</think>\n\nx = 1\n")
	if r.HasMarker || len(r.Blocks) != 0 || r.Text != "x = 1\n" {
		t.Errorf("got %+v", r)
	}
}

// TestUnclosedFenceIsACutOffReply: the naive path writes the code without
// the fence line; the strict path rejects the reply as cut off.
func TestUnclosedFenceIsACutOffReply(t *testing.T) {
	r := parseReply("FILE: calc.py\n```python\ndef add(a, b):\n    return a +")
	if !r.Unclosed || len(r.AfterMark) != 1 || strings.Contains(r.AfterMark[0], "```") {
		t.Errorf("got %+v", r)
	}
	if _, problem := strict("calc.py", r, false); !strings.Contains(problem, "cut off") {
		t.Errorf("strict problem = %q, want one saying the reply is cut off", problem)
	}
}
