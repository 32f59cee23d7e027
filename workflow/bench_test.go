package workflow

import (
	"strings"
	"testing"
)

// BenchmarkParseReply measures reading a typical reply: prose, the FILE:
// line and a 2 KiB code block.
func BenchmarkParseReply(b *testing.B) {
	reply := "The month is off by one.\n\nFILE: dateparse.py\n```python\n" + strings.Repeat("x = compute(a, b)  # comment\n", 70) + "```\nDone.\n"
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		if r := parseReply(reply); !r.HasMarker || len(r.Blocks) != 1 {
			b.Fatal("bad parse")
		}
	}
}
