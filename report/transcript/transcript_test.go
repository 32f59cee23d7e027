package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/table"

	"bench/record"
)

func TestFormatCall(t *testing.T) {
	for _, tc := range []struct {
		args, want string
		long       []string
	}{
		{`{}`, `edit_file()`, nil},
		{``, `edit_file()`, nil},
		// Order as written, a trailing newline kept inline, non-strings as JSON.
		{`{"path":"a.py","old":"x\n","n":2,"flag":true}`, `edit_file(path="a.py", old="x\n", n=2, flag=true)`, nil},
		{`{"path":"a.py","content":"import re\n\ndef f():\n    pass\n"}`, `edit_file(path="a.py", content=…)`, []string{"content"}},
		{`{"path":"a.py","old":"` + strings.Repeat("y", 61) + `"}`, `edit_file(path="a.py", old=…)`, []string{"old"}},
		{`{"path": "a.py"`, `edit_file({"path": "a.py")  [malformed arguments]`, nil},
		{`["a.py"]`, `edit_file(["a.py"])  [malformed arguments]`, nil},
	} {
		got, long := formatCall("edit_file", tc.args)
		var names []string
		for _, l := range long {
			names = append(names, l.name)
		}
		if got != tc.want || !slices.Equal(names, tc.long) {
			t.Errorf("formatCall(%s) = %s %v; want %s %v", tc.args, got, names, tc.want, tc.long)
		}
	}
}

func TestCompactCall(t *testing.T) {
	got := compactCall("write_file", `{"path":"slugify.py","content":"import re\n\n\ndef slugify(text):\n"}`)
	if want := `write_file("slugify.py", "import re⏎⏎⏎def s…")`; got != want {
		t.Errorf("compactCall = %s; want %s", got, want)
	}
}

func TestShorten(t *testing.T) {
	text := "1\n2\n3\n4\n5\n"
	if kept, more := shorten(text, 3, false); kept != "1\n2\n3" || more != 2 {
		t.Errorf("shorten 3 of 5 = %q, %d", kept, more)
	}
	if kept, more := shorten(text, 4, false); kept != "1\n2\n3\n4\n5" || more != 0 {
		t.Errorf("one line left over is shown, not hidden: %q, %d", kept, more)
	}
	if kept, more := shorten(text, 1, true); more != 0 || kept != "1\n2\n3\n4\n5" {
		t.Errorf("full shortens: %q, %d", kept, more)
	}
	if moreNote(0) != "" || moreNote(1) != "… (1 more line)" || moreNote(12) != "… (12 more lines)" {
		t.Errorf("notes: %q %q %q", moreNote(0), moreNote(1), moreNote(12))
	}
}

func TestKeyFailureLines(t *testing.T) {
	out := `test_a (t.T.test_a) ... FAIL
test_b (t.T.test_b) ... ERROR

======================================================================
FAIL: test_a (t.T.test_a)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "./t.py", line 5, in test_a
    self.assertEqual(f(), 2)
AssertionError: 1 != 2

======================================================================
ERROR: test_b (t.T.test_b)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "./t.py", line 8, in test_b
    f(None)
TypeError: bad operand
----------------------------------------------------------------------
Ran 2 tests in Xs

FAILED (failures=1, errors=1)
`
	want := []string{"FAIL test_a: AssertionError: 1 != 2", "ERROR test_b: TypeError: bad operand"}
	if got := keyFailureLines(out); !slices.Equal(got, want) {
		t.Errorf("keyFailureLines = %q\nwant %q", got, want)
	}
	// Output that is not unittest's: its last lines.
	if got := keyFailureLines("make: *** [test] Error 2\n\nsomething broke\n"); !slices.Equal(got, []string{"make: *** [test] Error 2", "something broke"}) {
		t.Errorf("fallback = %q", got)
	}
	var many strings.Builder
	for i := range 5 {
		many.WriteString("ERROR: test_" + string(rune('a'+i)) + " (x)\nTraceback (most recent call last):\nValueError: v\n\n")
	}
	got := keyFailureLines(many.String())
	if len(got) != 4 || got[3] != "… (2 more failing tests)" {
		t.Errorf("five failures = %q", got)
	}
}

func reply(content string, calls ...record.ToolCall) record.Event {
	return record.Event{Kind: record.EventResponse, Reply: &record.Message{Role: "assistant", Content: content, ToolCalls: calls}}
}

func TestDiverge(t *testing.T) {
	run := record.ToolCall{Name: "run_tests", Arguments: "{}"}
	read := record.ToolCall{Name: "read_file", Arguments: `{"path":"a.py"}`}
	a := Steps([]record.Event{reply("", run), {Kind: record.EventTestRun}, reply("", read), reply("done")})
	b := Steps([]record.Event{reply("", run), reply("", run), reply("done")})
	if len(a) != 3 {
		t.Fatalf("steps = %+v", a)
	}
	for _, tc := range []struct {
		x, y []Step
		want int
	}{
		{a, a, -1},
		{a, b, 1},
		{a, a[:2], 2}, // one stopped early: they diverge where it stopped
		{nil, nil, -1},
		{a, Steps([]record.Event{reply("", read)}), 0},
	} {
		if got := Diverge(tc.x, tc.y); got != tc.want {
			t.Errorf("Diverge(%d steps, %d steps) = %d; want %d", len(tc.x), len(tc.y), got, tc.want)
		}
	}
	// Text differences count, even with the same calls.
	if Diverge(Steps([]record.Event{reply("a", run)}), Steps([]record.Event{reply("b", run)})) != 0 {
		t.Error("replies with different text are the same step")
	}
}

func TestEntriesUnion(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("trajectories/leap_year/agent/seed-2-r1.jsonl") // unfinished: no episode line
	write("trajectories/leap_year/agent/seed-1.jsonl")    // finished
	write("trajectories/leap_year/agent/notes.txt")       // not a trajectory
	write("trajectories/leap_year/agent/seed-x.jsonl")    // not a trajectory
	write("trajectories/leap_year/agent/seed-01.jsonl")   // not as bench names seed 1: the report's check does not read it either
	write("trajectories/leap_year/agent/seed-3-r0.jsonl") // neither
	data := record.Data{Dir: dir, Episodes: []record.Episode{
		{Task: "leap_year", Track: "agent", Seed: 1, Passed: true},
		{Task: "leap_year", Track: "workflow", Seed: 1}, // its trajectory is missing
	}}
	got, err := Entries(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range got {
		names = append(names, e.Name()+" "+map[bool]string{true: "episode", false: "-"}[e.Episode != nil]+" "+e.Trajectory)
	}
	want := []string{
		"leap_year/agent/seed-1 episode " + filepath.Join("trajectories", "leap_year", "agent", "seed-1.jsonl"),
		"leap_year/agent/seed-2-r1 - " + filepath.Join("trajectories", "leap_year", "agent", "seed-2-r1.jsonl"),
		"leap_year/workflow/seed-1 episode ",
	}
	if !slices.Equal(names, want) {
		t.Errorf("entries:\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	seed, repeat := 2, 1
	if sel := (Filter{Seed: &seed, Repeat: &repeat}).Select(got); len(sel) != 1 || sel[0].Seed != 2 {
		t.Errorf("filter seed 2 repeat 1 = %+v", sel)
	}
	if _, err := Load(data, got[2]); err == nil || !strings.Contains(err.Error(), "has no trajectory") {
		t.Errorf("Load of a missing trajectory: %v", err)
	}
}

func TestWriteTranscriptUnknownFormat(t *testing.T) {
	var b strings.Builder
	if err := WriteTranscript(&b, Transcript{}, Options{Format: "html"}); err == nil || !strings.Contains(err.Error(), `unknown format "html"`) {
		t.Errorf("err = %v", err)
	}
}

func TestMarkdownFenceOutgrowsContent(t *testing.T) {
	var b strings.Builder
	ev := record.Event{Kind: record.EventRequest, Turn: 1, Messages: []record.Message{{Role: "user", Content: "look:\n```\ncode\n```"}}}
	if err := WriteTranscript(&b, Transcript{Events: []record.Event{ev}}, Options{Format: table.Markdown}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\n````\nlook:\n```\ncode\n```\n````\n") {
		t.Errorf("the fence does not enclose a block holding a fence:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "no end event") {
		t.Errorf("a trajectory without an end event is not said to stop early:\n%s", b.String())
	}
}

// agentEvents is a made-up agent trajectory of n turns that reads, edits
// and tests, then spends its turn budget: a final call without tools.
func agentEvents(n int) []record.Event {
	tools := []string{"edit_file", "list_files", "read_file", "run_tests", "write_file"}
	evs := []record.Event{{Kind: record.EventRequest, Turn: 1, Tools: tools, Messages: []record.Message{
		{Role: "system", Content: "line 1\nline 2\nline 3\nline 4\nline 5\nline 6"}, {Role: "user", Content: "Fix it."}}}}
	for turn := 1; turn <= n; turn++ {
		call := record.ToolCall{Name: "edit_file", Arguments: `{"path":"a.py","old":"x = 1\n","new":"x = 2\n"}`}
		evs = append(evs,
			record.Event{Kind: record.EventResponse, Turn: turn, Reply: &record.Message{Role: "assistant", ToolCalls: []record.ToolCall{call}}, PromptTokens: 100 * turn, CompletionTokens: 20},
			record.Event{Kind: record.EventToolCall, Turn: turn, Tool: call.Name, Args: call.Arguments},
			record.Event{Kind: record.EventWrite, Turn: turn, Path: "a.py", Bytes: 6},
			record.Event{Kind: record.EventToolResult, Turn: turn, Tool: call.Name, Result: "edited a.py"},
			record.Event{Kind: record.EventRequest, Turn: turn + 1, Tools: tools, Messages: []record.Message{{Role: "tool", ToolName: call.Name, Content: "edited a.py"}}},
		)
	}
	evs[len(evs)-1].Tools = nil
	return append(evs,
		record.Event{Kind: record.EventResponse, Turn: n + 1, Reply: &record.Message{Role: "assistant", Content: "Out of turns."}},
		record.Event{Kind: record.EventEnd, Exit: record.ExitMaxTurns})
}

func TestFinalCallWithoutTools(t *testing.T) {
	var b strings.Builder
	tr := Transcript{Entry: Entry{Task: "t", Track: "agent", Seed: 3}, Events: agentEvents(2)}
	if err := WriteTranscript(&b, tr, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"t · agent · seed 3\n",
		"outcome: unknown",
		"6 lines, sent unchanged with every request of the episode:\n    line 1\n    line 2\n    line 3\n    line 4\n    … (2 more lines)\n",
		"Turn 3\n------\nfinal call without tools",
		"call edit_file(path=\"a.py\", old=\"x = 1\\n\", new=\"x = 2\\n\")\n",
		"exit: max_turns",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "final call without tools") != 1 || strings.Count(out, "line 1") != 1 {
		t.Errorf("the final call or the system prompt is shown more than once:\n%s", out)
	}
}

// BenchmarkWriteTranscript renders a 100-turn agent trajectory.
func BenchmarkWriteTranscript(b *testing.B) {
	tr := Transcript{Entry: Entry{Task: "t", Track: "agent", Seed: 1}, Events: agentEvents(100)}
	for _, format := range []string{table.Text, table.Markdown} {
		b.Run(format, func(b *testing.B) {
			var sb strings.Builder
			for b.Loop() {
				sb.Reset()
				if err := WriteTranscript(&sb, tr, Options{Format: format}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(tr.Events)), "ns/event")
		})
	}
}
