package plan

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"bench/loop"
	"bench/model"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
	"bench/workflow"
)

// TestEpisodeBoundArithmetic: the bounds against sums worked by hand.
func TestEpisodeBoundArithmetic(t *testing.T) {
	for _, c := range []struct {
		track string
		b     Budget
		want  Bound
	}{
		{"workflow", Budget{MaxTokens: 4096}, Bound{Calls: 1, ReplyTokens: 4096}},
		{"workflow-retry", Budget{Tries: 3, MaxTokens: 100}, Bound{Calls: 3, ReplyTokens: 300}},
		{"workflow-retry", Budget{MaxTokens: 100}, Bound{Calls: 2, ReplyTokens: 200}},                         // the default 2 tries
		{"agent", Budget{MaxTokens: 4096}, Bound{Calls: 26, ReplyTokens: 106496}},                             // 25 turns + the final call
		{"agent", Budget{MaxTurns: 4, MaxTokens: 1000, TokenLimit: 2500}, Bound{Calls: 5, ReplyTokens: 3499}}, // 2499 before the last turn + 1000
		{"agent", Budget{MaxTurns: 4, MaxTokens: 1000, TokenLimit: 1 << 20}, Bound{Calls: 5, ReplyTokens: 5000}},
		{"hybrid", Budget{MaxTurns: 2, MaxToolCalls: 3, MaxTokens: 10}, Bound{Calls: 3 + 6, ReplyTokens: 90}},
		{"agent", Budget{MaxTurns: 4}, Bound{Calls: 5, Unbounded: true}},
		{"oracle", Budget{MaxTokens: 4096}, Bound{}},
	} {
		got, err := EpisodeBound(c.track, c.b)
		if err != nil || got != c.want {
			t.Errorf("%s %+v: %+v, %v; want %+v", c.track, c.b, got, err, c.want)
		}
	}
	if _, err := EpisodeBound("agnet", Budget{}); err == nil {
		t.Error("an unknown track has a bound")
	}
}

// TestEpisodeBoundHoldsForTheRealTracks: the agent and workflow-retry, run
// against a fake model that never finishes and fills every reply to the
// cap, spend exactly the bound's calls and at most its reply tokens.
func TestEpisodeBoundHoldsForTheRealTracks(t *testing.T) {
	const maxTokens = 50
	full := model.Usage{PromptTokens: 10, CompletionTokens: maxTokens}
	for _, c := range []struct {
		name string
		b    Budget
		run  func(context.Context, *track.Env) track.Outcome
		say  model.Message
	}{
		{"agent", Budget{MaxTurns: 3, MaxTokens: maxTokens}, loop.Agent, tracktest.Calls("list_files", `{"path":"."}`)},
		{"agent", Budget{MaxTurns: 30, MaxTokens: maxTokens, TokenLimit: 200}, loop.Agent, tracktest.Calls("list_files", `{"path":"."}`)},
		{"workflow-retry", Budget{Tries: 3, MaxTokens: maxTokens}, workflow.Retry, tracktest.Text("no file here")},
		{"workflow", Budget{MaxTokens: maxTokens}, workflow.Workflow, tracktest.Text("no file here")},
	} {
		chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply { return tracktest.FakeReply{Msg: c.say, Usage: full} }}
		env := lessonEnv(t, chat)
		env.MaxTurns, env.Tries, env.TokenLimit = c.b.MaxTurns, c.b.Tries, c.b.TokenLimit
		out := c.run(context.Background(), env)
		bound, err := EpisodeBound(c.name, c.b)
		if err != nil {
			t.Fatal(err)
		}
		if c.b.TokenLimit == 0 && out.ModelCalls != bound.Calls {
			t.Errorf("%s %+v: %d calls, bound %d", c.name, c.b, out.ModelCalls, bound.Calls)
		}
		if out.ModelCalls > bound.Calls || out.Usage.CompletionTokens > bound.ReplyTokens {
			t.Errorf("%s %+v: spent %d calls, %d reply tokens; bound %+v", c.name, c.b, out.ModelCalls, out.Usage.CompletionTokens, bound)
		}
	}
}

// lessonEnv is an episode environment on a small temp workspace.
func lessonEnv(t *testing.T, chat model.Chatter) *track.Env {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"calc.py":      "def add(a, b):\n    return a - b\n",
		"test_calc.py": "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &track.Env{
		Task: tasks.Task{Name: "calc", Instruction: "Fix add.", TestCmd: []string{"python3", "-m", "unittest", "-v"},
			Source: "calc.py", TestFiles: []string{"test_calc.py"}, Timeout: 10 * time.Second},
		Dir: dir, Model: chat, Options: model.Options{Seed: 1, NumCtx: 8192}, Rec: &tracktest.FakeRecorder{},
	}
}
