package loop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/track/tracktest"
	"bench/workspace"
)

// TestOllamaAgentFIFOAndHardLinkDoNoHarm: a FIFO in the workspace makes
// read_file fail at once instead of blocking, and a hard link to a file
// outside is neither written nor edited; the episode goes on and ends.
func TestOllamaAgentFIFOAndHardLinkDoNoHarm(t *testing.T) {
	t.Parallel()
	chat, _ := ollama(t,
		call("read_file", `{"path":"pipe.py"}`),
		call("write_file", `{"path":"linked.py","content":"gone"}`),
		call("edit_file", `{"path":"linked.py","old":"keep","new":"gone"}`),
		modeltest.Text("Stopping."),
	)
	env, rec := tracktest.Fixture(t, "leap_year", chat)
	if err := syscall.Mkfifo(filepath.Join(env.Dir, "pipe.py"), 0o644); err != nil {
		fixture.Lacks(t, fmt.Sprintf("mkfifo: %v", err))
	}
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, filepath.Join(env.Dir, "linked.py")); err != nil {
		t.Skipf("link: %v", err)
	}
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitDone || out.ModelCalls != 4 {
		t.Fatalf("outcome = %+v", out)
	}
	res := rec.Of(record.EventToolResult)
	for i, want := range []string{"pipe.py is not a regular file", "linked.py has 2 hard links", "linked.py has 2 hard links"} {
		if !res[i].IsError || !strings.Contains(res[i].Result, want) {
			t.Errorf("result %d = %q; want an error saying %q", i, res[i].Result, want)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the file outside the workspace changed: %q", b)
	}
}

// TestAgentRunsAtMostMaxToolCallsFromOneReply: the calls past the cap get
// an error result each, in order, and the loop goes on.
func TestAgentRunsAtMostMaxToolCallsFromOneReply(t *testing.T) {
	var pairs []string
	for i := range DefaultMaxToolCalls + 4 {
		pairs = append(pairs, "write_file", fmt.Sprintf(`{"path":"f%02d.txt","content":"x"}`, i))
	}
	chat := &tracktest.FakeChatter{Script: []tracktest.FakeReply{tracktest.Say(tracktest.Calls(pairs...)), tracktest.Say(tracktest.Text("ok"))}}
	env, rec := newEnv(t, chat)
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitDone || out.ModelCalls != 2 {
		t.Fatalf("outcome = %+v", out)
	}
	res := rec.Of(record.EventToolResult)
	if len(res) != DefaultMaxToolCalls+4 {
		t.Fatalf("%d tool results, want %d", len(res), DefaultMaxToolCalls+4)
	}
	for i, ev := range res {
		skipped := i >= DefaultMaxToolCalls
		if ev.IsError != skipped || skipped && !strings.Contains(ev.Result, fmt.Sprintf("at most %d tool calls", DefaultMaxToolCalls)) {
			t.Errorf("result %d = %q (error %v)", i, ev.Result, ev.IsError)
		}
	}
	if n := len(rec.Of(record.EventWrite)); n != DefaultMaxToolCalls {
		t.Errorf("%d files written, want %d", n, DefaultMaxToolCalls)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, fmt.Sprintf("f%02d.txt", DefaultMaxToolCalls))); err == nil {
		t.Error("a call past the cap was run")
	}
	// Every call gets its answer, so the next request is well-formed.
	msgs := chat.Requests[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != model.RoleTool || !strings.Contains(last.Content, "not run") {
		t.Errorf("last message = %+v", last)
	}
}

// TestToolsTakeTheContext: every tool refuses to start once the episode's
// context is done, and writes nothing.
func TestToolsTakeTheContext(t *testing.T) {
	env, _ := newEnv(t, &tracktest.FakeChatter{})
	ws, err := workspace.Open(env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := newRegistry(nil)
	for _, tc := range []model.ToolCall{
		{Name: "list_files", Arguments: `{"path":"."}`},
		{Name: "read_file", Arguments: `{"path":"calc.py"}`},
		{Name: "write_file", Arguments: `{"path":"new.py","content":"x"}`},
		{Name: "edit_file", Arguments: `{"path":"calc.py","old":"a - b","new":"a + b"}`},
		{Name: "run_tests", Arguments: `{}`},
	} {
		text, isErr, _ := r.call(ctx, &session{env: env, ws: ws}, tc)
		if !isErr || !strings.Contains(text, "context canceled") {
			t.Errorf("%s with a cancelled context = %q", tc.Name, text)
		}
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "new.py")); err == nil {
		t.Error("write_file wrote after the context was cancelled")
	}
	if b, _ := os.ReadFile(filepath.Join(env.Dir, "calc.py")); !strings.Contains(string(b), "a - b") {
		t.Error("edit_file edited after the context was cancelled")
	}
}
