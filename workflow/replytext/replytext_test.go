package replytext

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
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
		r := Parse(tc.text)
		if r.HasMarker != tc.marker || r.Path != tc.path || !slices.Equal(r.Blocks, tc.blocks) || len(r.AfterMark) != tc.afterMark || r.Rest() != tc.rest {
			t.Errorf("%s: got %+v", tc.name, r)
		}
	}
}

// TestRestsOfEveryMarker: each FILE: line outside a block gives the text
// after it, in order; Rest is the first's only when no block follows it.
func TestRestsOfEveryMarker(t *testing.T) {
	r := Parse("FILE: a.py\nx = 1\nFILE: b.py\ny = 2\n```\nFILE: c.py\n```\n")
	want := []string{"x = 1\nFILE: b.py\ny = 2\n```\nFILE: c.py\n```\n", "y = 2\n```\nFILE: c.py\n```\n"}
	if !slices.Equal(r.Rests, want) || r.Path != "a.py" || r.Rest() != "" {
		t.Errorf("got %+v", r)
	}
	if r := Parse("FILE: a.py\nx = 1\n"); r.Rest() != "x = 1\n" {
		t.Errorf("Rest() = %q", r.Rest())
	}
}

// BenchmarkParse measures reading a typical reply: prose, the FILE:
// line and a 2 KiB code block.
func BenchmarkParse(b *testing.B) {
	reply := "The month is off by one.\n\nFILE: dateparse.py\n```python\n" + strings.Repeat("x = compute(a, b)  # comment\n", 70) + "```\nDone.\n"
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		if r := Parse(reply); !r.HasMarker || len(r.Blocks) != 1 {
			b.Fatal("bad parse")
		}
	}
}
