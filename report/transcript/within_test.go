package transcript

import (
	"bytes"
	"strings"
	"testing"

	"bench/internal/table"

	"bench/record"
)

// TestWithinNestsUnderTheCall: the events run_workflow made for the hybrid
// agent (its test runs, its model call, its write) sit indented under the
// call, after a line naming the tool, in text and in Markdown; the agent's
// own events after it are back at the top.
func TestWithinNestsUnderTheCall(t *testing.T) {
	tr := Transcript{Entry: Entry{Task: "parse_date", Track: "hybrid", Seed: 1}, Events: []record.Event{
		{Kind: record.EventToolCall, Turn: 1, Tool: "run_workflow", Args: `{}`},
		{Kind: record.EventTestRun, Turn: 1, Within: "run_workflow", TestsPassed: 1, TestsTotal: 2, Output: "FAIL: test_x"},
		{Kind: record.EventResponse, Turn: 1, Within: "run_workflow", Reply: &record.Message{Content: "FILE: dateparse.py"}},
		{Kind: record.EventWrite, Turn: 1, Within: "run_workflow", Path: "dateparse.py", Bytes: 10},
		{Kind: record.EventToolResult, Turn: 1, Tool: "run_workflow", Result: "wrote dateparse.py"},
		{Kind: record.EventEnd, Exit: "done"},
	}}
	var text bytes.Buffer
	if err := WriteTranscript(&text, tr, Options{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"\nwithin run_workflow (the tool's own steps, for the model):\n", "\n  │ tests: 1/2 passed", "\n  │ wrote dateparse.py (10 bytes)\n", "\nresult of run_workflow"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "│ call") || strings.Contains(out, "│ result of") {
		t.Errorf("the agent's own call or result is nested:\n%s", out)
	}
	var md bytes.Buffer
	if err := WriteTranscript(&md, tr, Options{Format: table.Markdown}); err != nil {
		t.Fatal(err)
	}
	if out := md.String(); !strings.Contains(out, "\n  - wrote `dateparse.py` (10 bytes)\n") || !strings.Contains(out, "\n- result of") {
		t.Errorf("markdown does not nest the tool's steps:\n%s", out)
	}
}
