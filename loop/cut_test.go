package loop

import (
	"context"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/track/tracktest"
)

// TestOllamaAgentCutReplyIsNotTheEnd: a reply without tool calls that the
// server cut off at the reply cap (done_reason "length") does not end the
// episode as done: the model is told, and the next turn goes on.
func TestOllamaAgentCutReplyIsNotTheEnd(t *testing.T) {
	t.Parallel()
	chat, srv := ollama(t,
		modeltest.Text("First I will look at the").WithDoneReason("length"),
		call("read_file", `{"path":"leap.py"}`),
		modeltest.Text("Looked; nothing to change."),
	)
	env, rec := tracktest.Fixture(t, "leap_year", chat)
	env.Options.MaxReplyTokens = 64
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitDone || out.ModelCalls != 3 || out.Turns != 3 {
		t.Fatalf("outcome = %+v; want done after 3 turns", out)
	}
	ask := srv.Requests()[1].Last()
	if ask.Role != model.RoleUser || !strings.Contains(ask.Content, "cut off") || !strings.Contains(ask.Content, "64 tokens") {
		t.Errorf("the request after the cut reply ends with %+v", ask)
	}
	var reasons []string
	for _, ev := range rec.Of(record.EventResponse) {
		reasons = append(reasons, ev.StopReason)
	}
	if want := []string{model.StopLength, model.StopToolCalls, model.StopEnd}; !slices.Equal(reasons, want) {
		t.Errorf("stop reasons = %v, want %v", reasons, want)
	}
}

// TestOllamaAgentCutRepliesUseUpTurns: a model whose every reply is cut
// still ends, with max_turns.
func TestOllamaAgentCutRepliesUseUpTurns(t *testing.T) {
	t.Parallel()
	chat, _ := ollama(t, modeltest.Always(modeltest.Text("and so on and so").WithDoneReason("length")))
	env, _ := tracktest.Fixture(t, "leap_year", chat)
	env.MaxTurns = 3
	out := Agent(context.Background(), env)
	if out.Exit != record.ExitMaxTurns || out.Turns != 3 || out.ModelCalls != 4 {
		t.Errorf("outcome = %+v; want max_turns after 3 turns and 4 calls", out)
	}
}
