package loop

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
	"bench/workspace"
)

// newEnv returns an episode environment on a small temp workspace.
func newEnv(t testing.TB, chat model.Chatter) (*track.Env, *tracktest.FakeRecorder) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("calc.py", "def add(a, b):\n    return a - b\n")
	write("test_calc.py", "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n")
	rec := &tracktest.FakeRecorder{}
	env := &track.Env{
		Task: tasks.Task{Name: "calc", Instruction: "Fix add.", TestCmd: []string{"python3", "-m", "unittest", "-v"},
			Source: "calc.py", TestFiles: []string{"test_calc.py"}, Timeout: 10 * time.Second},
		Dir: dir, Model: chat, Options: model.Options{Seed: 1, NumCtx: 8192}, Rec: rec,
	}
	return env, rec
}

func TestAgentRunsToolsInOrderUntilAnswer(t *testing.T) {
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		tracktest.Say(tracktest.Calls("read_file", `{"path":"calc.py"}`, "edit_file", `{"path":"calc.py","old":"a - b","new":"a + b"}`)),
		tracktest.Say(tracktest.Text("Fixed the sign in add.")),
	}}
	env, rec := newEnv(t, chat)
	out := Agent(context.Background(), env)

	if out.Exit != record.ExitDone || out.Err != nil {
		t.Fatalf("exit = %q, %v; want done", out.Exit, out.Err)
	}
	if out.Turns != 2 || out.ModelCalls != 2 {
		t.Errorf("turns, calls = %d, %d; want 2, 2", out.Turns, out.ModelCalls)
	}
	if want := []string{"read_file", "edit_file"}; !slices.Equal(out.ToolCalls, want) {
		t.Errorf("tool calls = %v, want %v", out.ToolCalls, want)
	}
	if got, _ := os.ReadFile(filepath.Join(env.Dir, "calc.py")); !strings.Contains(string(got), "a + b") {
		t.Errorf("calc.py not edited:\n%s", got)
	}
	// The second request carries the two tool results, in call order, answering their calls.
	msgs := chat.Requests[1].Messages
	tail := msgs[len(msgs)-2:]
	if tail[0].Role != model.RoleTool || tail[0].ToolName != "read_file" || tail[0].ToolCallID != "call_read_file" ||
		!strings.Contains(tail[0].Content, "return a - b") {
		t.Errorf("first tool message = %+v", tail[0])
	}
	if tail[1].ToolName != "edit_file" || !strings.HasPrefix(tail[1].Content, "edited calc.py") {
		t.Errorf("second tool message = %+v", tail[1])
	}
	wantKinds := []string{"request", "response", "tool_call", "tool_result", "tool_call", "write", "tool_result", "request", "response"}
	if got := rec.Kinds(); !slices.Equal(got, wantKinds) {
		t.Errorf("events = %v\nwant %v", got, wantKinds)
	}
	if len(out.Steps) != 2 || !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(out.Steps[0]) || out.Steps[0] == out.Steps[1] {
		t.Errorf("steps = %v; want two distinct 8-hex digests", out.Steps)
	}
}

func TestAgentRequestEventsHoldOnlyNewMessages(t *testing.T) {
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Calls("list_files", `{"path":""}`)), tracktest.Say(tracktest.Text("ok"))}}
	env, rec := newEnv(t, chat)
	Agent(context.Background(), env)
	reqs := rec.Of(record.EventRequest)
	if len(reqs) != 2 {
		t.Fatalf("%d request events, want 2", len(reqs))
	}
	first, second := reqs[0], reqs[1]
	if len(first.Messages) != 2 || first.Messages[0].Role != model.RoleSystem || first.Messages[1].Role != model.RoleUser {
		t.Errorf("first request messages = %+v; want system and user", first.Messages)
	}
	if len(second.Messages) != 1 || second.Messages[0].Role != model.RoleTool || second.Messages[0].ToolName != "list_files" {
		t.Errorf("second request messages = %+v; want only the tool result", second.Messages)
	}
	if want := []string{"edit_file", "list_files", "read_file", "run_tests", "write_file"}; !slices.Equal(first.Tools, want) {
		t.Errorf("tools = %v, want %v", first.Tools, want)
	}
	if first.EstTokens <= 0 || second.EstTokens <= first.EstTokens {
		t.Errorf("estimates = %d, %d; want positive and growing", first.EstTokens, second.EstTokens)
	}
	if got := rec.Of(record.EventToolResult)[0].Result; got != "calc.py\ntest_calc.py" {
		t.Errorf("list_files result = %q", rec.Of(record.EventToolResult)[0].Result)
	}
}

func TestAgentMaxTurnsEndsWithOneCallWithoutTools(t *testing.T) {
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`))
	}}
	env, rec := newEnv(t, chat)
	env.MaxTurns = 3
	out := Agent(context.Background(), env)

	if out.Exit != record.ExitMaxTurns {
		t.Fatalf("exit = %q, want max_turns", out.Exit)
	}
	if out.Turns != 3 || out.ModelCalls != 4 || len(chat.Requests) != 4 {
		t.Errorf("turns %d, model calls %d, requests %d; want 3, 4, 4", out.Turns, out.ModelCalls, len(chat.Requests))
	}
	without := 0
	for i, req := range chat.Requests {
		if len(req.Tools) == 0 {
			without++
			if i != len(chat.Requests)-1 {
				t.Errorf("request %d has no tools; only the last may", i)
			}
		}
	}
	if without != 1 {
		t.Errorf("%d requests without tools, want exactly 1", without)
	}
	// The final call's tool request is not run.
	if n := len(rec.Of(record.EventToolCall)); n != 3 {
		t.Errorf("%d tool calls run, want 3", n)
	}
}

func TestAgentDefaultTurnBudget(t *testing.T) {
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`))
	}}
	env, _ := newEnv(t, chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitMaxTurns || out.ModelCalls != record.DefaultMaxTurns+1 {
		t.Errorf("exit %q after %d calls; want max_turns after %d", out.Exit, out.ModelCalls, record.DefaultMaxTurns+1)
	}
}

func TestAgentSystemPromptIsBuiltOnce(t *testing.T) {
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`)),
		tracktest.Say(tracktest.Calls("read_file", `{"path":"calc.py"}`, "write_file", `{"path":"notes.txt","content":"x"}`)),
		tracktest.Say(tracktest.Calls("nope", `{}`)),
	}, Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`))
	}}
	env, _ := newEnv(t, chat)
	env.MaxTurns = 5
	env.Guidance = "Read before you write."
	env.Snapshot = "- Root: ."
	Agent(context.Background(), env)

	first := chat.Requests[0].Messages[0]
	if first.Role != model.RoleSystem || !strings.Contains(first.Content, "Read before you write.") || !strings.Contains(first.Content, "- Root: .") {
		t.Fatalf("system message = %+v; want guidance and snapshot in it", first)
	}
	for i, req := range chat.Requests {
		if req.Messages[0].Role != model.RoleSystem || req.Messages[0].Content != first.Content {
			t.Errorf("request %d: system prompt differs from the first", i)
		}
		for _, m := range req.Messages[1:] {
			if m.Role == model.RoleSystem {
				t.Errorf("request %d holds a second system message", i)
			}
		}
	}
}

func TestAgentGeneralPostureHasNoGuidance(t *testing.T) {
	chat := &tracktest.FakeChatter{}
	env, _ := newEnv(t, chat)
	env.Snapshot = "- Root: ." // a snapshot without guidance is not shown
	Agent(context.Background(), env)
	if got := chat.Requests[0].Messages[0].Content; got != systemBase {
		t.Errorf("system prompt = %q, want the base prompt only", got)
	}
}

func TestAgentToolErrorsAreResultsAndTheLoopGoesOn(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		tracktest.Say(tracktest.Calls("read_file", `{"path": "calc.py"`)),                      // malformed JSON
		tracktest.Say(tracktest.Calls("read_file", `{}`)),                                      // missing argument
		tracktest.Say(tracktest.Calls("read_file", `{"path":"calc.py","mode":"r"}`)),           // extra argument
		tracktest.Say(tracktest.Calls("read_file", `{"path": 7}`)),                             // wrong type
		tracktest.Say(tracktest.Calls("delete_file", `{"path":"calc.py"}`)),                    // unknown tool
		tracktest.Say(tracktest.Calls("read_file", `{"path":"missing.py"}`)),                   // missing file
		tracktest.Say(tracktest.Calls("write_file", `{"path":"`+victim+`","content":"gone"}`)), // absolute path
		tracktest.Say(tracktest.Calls("write_file", `{"path":"../victim.txt","content":"gone"}`)),
		tracktest.Say(tracktest.Calls("write_file", `{"path":"link/victim.txt","content":"gone"}`)), // through a symlink
		tracktest.Say(tracktest.Calls("edit_file", `{"path":"calc.py","old":"nothing like this","new":"x"}`)),
		tracktest.Say(tracktest.Text("I give up.")),
	}}
	env, rec := newEnv(t, chat)
	if err := os.Symlink(outside, filepath.Join(env.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	out := Agent(context.Background(), env)

	if out.Exit != record.ExitDone || out.ModelCalls != 11 {
		t.Fatalf("exit %q after %d calls; want done after 11", out.Exit, out.ModelCalls)
	}
	want := []string{"not a valid JSON object", `missing argument "path"`, `unexpected argument "mode"`, `"path" must be a string`,
		`unknown tool "delete_file"`, "no such file: missing.py", "is absolute", `climbs out with ".."`, "symbolic link", "found 0 times"}
	res := rec.Of(record.EventToolResult)
	if len(res) != len(want) {
		t.Fatalf("%d tool results, want %d", len(res), len(want))
	}
	for i, ev := range res {
		if !ev.IsError || !strings.HasPrefix(ev.Result, "error: ") || !strings.Contains(ev.Result, want[i]) {
			t.Errorf("result %d = %q (error %v); want an error containing %q", i, ev.Result, ev.IsError, want[i])
		}
		if strings.Contains(ev.Result, env.Dir) {
			t.Errorf("result %d shows the workspace's absolute path: %q", i, ev.Result)
		}
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Errorf("file outside the workspace changed: %q", got)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("files outside the workspace: %v", entries)
	}
	if len(rec.Of(record.EventWrite)) != 0 {
		t.Errorf("write events recorded: %+v", rec.Of(record.EventWrite))
	}
}

// TestAgentFileSizeCap: write_file, edit_file and read_file refuse files
// over workspace.MaxFileBytes, as tool errors, and write nothing.
func TestAgentFileSizeCap(t *testing.T) {
	big := strings.Repeat("x", workspace.MaxFileBytes+1)
	half := strings.Repeat("y", workspace.MaxFileBytes/2+1)
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		tracktest.Say(tracktest.Calls("write_file", `{"path":"big.py","content":"`+big+`"}`)),
		tracktest.Say(tracktest.Calls("write_file", `{"path":"half.py","content":"`+half+`"}`)),
		tracktest.Say(tracktest.Calls("edit_file", `{"path":"half.py","old":"yy","new":"`+half+`"}`)),
		tracktest.Say(tracktest.Calls("read_file", `{"path":"huge.txt"}`)),
		tracktest.Say(tracktest.Text("done")),
	}}
	env, rec := newEnv(t, chat)
	if err := os.WriteFile(filepath.Join(env.Dir, "huge.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	Agent(context.Background(), env)
	res := rec.Of(record.EventToolResult)
	if len(res) != 4 {
		t.Fatalf("%d tool results, want 4", len(res))
	}
	for i, wantErr := range []bool{true, false, true, true} {
		if res[i].IsError != wantErr {
			t.Errorf("result %d: error %v, want %v: %.120q", i, res[i].IsError, wantErr, res[i].Result)
		}
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "big.py")); err == nil {
		t.Error("the oversized file was written")
	}
	if info, _ := os.Stat(filepath.Join(env.Dir, "half.py")); info == nil || info.Size() != int64(len(half)) {
		t.Error("the oversized edit changed the file")
	}
}

func TestAgentCanWriteATestFile(t *testing.T) {
	// Grading restores test files from the task; the agent itself is not stopped.
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Calls("write_file", `{"path":"test_calc.py","content":"pass\n"}`))}}
	env, rec := newEnv(t, chat)
	Agent(context.Background(), env)
	if got, _ := os.ReadFile(filepath.Join(env.Dir, "test_calc.py")); string(got) != "pass\n" {
		t.Errorf("test_calc.py = %q", got)
	}
	if w := rec.Of(record.EventWrite); len(w) != 1 || w[0].Path != "test_calc.py" || w[0].Bytes != 5 || w[0].Turn != 1 {
		t.Errorf("write events = %+v", w)
	}
}

func TestAgentEditFileNeedsExactlyOneMatch(t *testing.T) {
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		tracktest.Say(tracktest.Calls("write_file", `{"path":"sub/dup.py","content":"x = 1\nx = 1\n"}`)),
		tracktest.Say(tracktest.Calls("edit_file", `{"path":"sub/dup.py","old":"x = 1","new":"x = 2"}`)),
		tracktest.Say(tracktest.Calls("edit_file", `{"path":"sub/dup.py","old":"x = 1\nx = 1","new":"x = 2"}`)),
	}}
	env, rec := newEnv(t, chat)
	Agent(context.Background(), env)
	res := rec.Of(record.EventToolResult)
	if !strings.Contains(res[1].Result, "found 2 times in sub/dup.py") || !res[1].IsError {
		t.Errorf("ambiguous edit result = %q", res[1].Result)
	}
	if res[2].IsError {
		t.Errorf("unique edit failed: %q", res[2].Result)
	}
	if got, _ := os.ReadFile(filepath.Join(env.Dir, "sub", "dup.py")); string(got) != "x = 2\n" {
		t.Errorf("dup.py = %q", got)
	}
}

func TestAgentCapsToolResults(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 3000) // 48000 bytes
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Calls("read_file", `{"path":"big.txt"}`))}}
	env, rec := newEnv(t, chat)
	if err := os.WriteFile(filepath.Join(env.Dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	Agent(context.Background(), env)
	got := rec.Of(record.EventToolResult)[0].Result
	if !strings.HasPrefix(got, big[:ResultCap]) || !strings.HasSuffix(got, "[output cut: 31616 of 48000 bytes not shown]") {
		t.Errorf("capped result ends %q", got[len(got)-80:])
	}
	if len(got) > ResultCap+100 {
		t.Errorf("result is %d bytes", len(got))
	}
}

func TestAgentStopsAtTokenBudget(t *testing.T) {
	use := model.Usage{PromptTokens: 80, CompletionTokens: 20}
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.FakeReply{Msg: tracktest.Calls("list_files", `{"path":"."}`), Usage: use}
	}}
	env, _ := newEnv(t, chat)
	env.TokenLimit = 250
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitTokenBudget || out.ModelCalls != 3 || out.Usage.Total() != 300 {
		t.Errorf("exit %q after %d calls, %d tokens; want token_budget after 3 calls, 300 tokens", out.Exit, out.ModelCalls, out.Usage.Total())
	}
}

// TestAgentTokenBudgetWithoutReportedUsage: a server that reports no token
// counts is held to the budget by the offline estimate.
func TestAgentTokenBudgetWithoutReportedUsage(t *testing.T) {
	use := model.Usage{EstPromptTokens: 80, EstCompletionTokens: 20}
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.FakeReply{Msg: tracktest.Calls("list_files", `{"path":"."}`), Usage: use}
	}}
	env, _ := newEnv(t, chat)
	env.TokenLimit = 250
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitTokenBudget || out.ModelCalls != 3 {
		t.Errorf("exit %q after %d calls; want token_budget after 3 calls", out.Exit, out.ModelCalls)
	}
}

func TestAgentInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	chat := &tracktest.FakeChatter{Next: func(call int, _ model.Request) tracktest.FakeReply {
		if call == 1 {
			cancel()
			return tracktest.FakeReply{Err: context.Canceled}
		}
		return tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`))
	}}
	env, _ := newEnv(t, chat)
	out := Agent(ctx, env)
	if out.Exit != record.ExitInterrupted || out.ModelCalls != 2 {
		t.Errorf("exit = %q after %d calls, want interrupted after 2", out.Exit, out.ModelCalls)
	}
}

func TestAgentModelErrorEndsWithError(t *testing.T) {
	boom := errors.New("server said 500 three times")
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`)), {Err: boom}}}
	env, rec := newEnv(t, chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitError || !errors.Is(out.Err, boom) || out.ModelCalls != 2 {
		t.Errorf("exit %q, err %v, calls %d; want error, boom, 2", out.Exit, out.Err, out.ModelCalls)
	}
	if n := len(rec.Of(record.EventResponse)); n != 1 {
		t.Errorf("%d response events; the failed call has none", n)
	}
}

func TestToolSchemas(t *testing.T) {
	specs := newRegistry(nil).specs()
	want := map[string][]string{"edit_file": {"path", "old", "new"}, "list_files": {"path"}, "read_file": {"path"},
		"run_tests": {}, "write_file": {"path", "content"}}
	for _, s := range specs {
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(s.Parameters, &schema); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", s.Name, err)
		}
		if schema.Type != "object" || !slices.Equal(schema.Required, want[s.Name]) || len(schema.Properties) != len(want[s.Name]) {
			t.Errorf("%s: schema %s", s.Name, s.Parameters)
		}
		if s.Description == "" {
			t.Errorf("%s has no description", s.Name)
		}
	}
	if len(specs) != len(want) {
		t.Errorf("%d tools, want %d", len(specs), len(want))
	}
}
