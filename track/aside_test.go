package track_test

import (
	"context"
	"slices"
	"testing"

	"bench/model"
	"bench/record"
	"bench/track"
	"bench/track/tracktest"
)

// TestAsideCountsOnceAndIsMarked: a side conversation's call goes to its
// own model, with its own history; it counts once in the episode's calls,
// usage, model time and steps and again, apart, in WorkflowCalls and
// WorkflowUsage; its events carry the outer turn and its mark.
func TestAsideCountsOnceAndIsMarked(t *testing.T) {
	agent := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		{Msg: tracktest.Text("outer 1"), Usage: model.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{Msg: tracktest.Text("outer 2"), Usage: model.Usage{PromptTokens: 200, CompletionTokens: 20}},
	}}
	editor := &tracktest.FakeChatter{Script: []tracktest.FakeReply{
		{Msg: tracktest.Text("inner"), Usage: model.Usage{PromptTokens: 40, CompletionTokens: 4, EstPromptTokens: 39}},
	}}
	rec := &tracktest.FakeRecorder{}
	env := &track.Env{Model: agent, Rec: rec}
	conv := track.NewConversation(env, "outer system")
	ctx := context.Background()

	conv.Add(model.Message{Role: model.RoleUser, Content: "first"})
	if _, err := conv.Call(ctx, nil); err != nil {
		t.Fatal(err)
	}
	aside := conv.Aside("inner system", "run_workflow", editor)
	aside.Add(model.Message{Role: model.RoleUser, Content: "fix this"})
	if _, err := aside.Call(ctx, nil); err != nil {
		t.Fatal(err)
	}
	aside.Record(record.Event{Kind: record.EventWrite, Path: "a.py"})
	conv.Add(model.Message{Role: model.RoleUser, Content: "second"})
	if _, err := conv.Call(ctx, nil); err != nil {
		t.Fatal(err)
	}

	out := conv.End(record.ExitDone, nil)
	if out.ModelCalls != 3 || out.WorkflowCalls != 1 {
		t.Errorf("calls %d, workflow calls %d; want 3 and 1", out.ModelCalls, out.WorkflowCalls)
	}
	if out.Usage.PromptTokens != 340 || out.Usage.CompletionTokens != 34 || out.Usage.EstPromptTokens != 39 {
		t.Errorf("usage %+v; want 340 prompt, 34 completion, 39 estimated: the inner call once", out.Usage)
	}
	if out.WorkflowUsage.Total() != 44 || out.WorkflowUsage.EstPromptTokens != 39 {
		t.Errorf("workflow usage %+v; want the inner call's 44 tokens", out.WorkflowUsage)
	}
	if conv.Spent() != 110+44+220 {
		t.Errorf("spent %d against the budget; want %d", conv.Spent(), 110+44+220)
	}
	if len(out.Steps) != 3 || out.Steps[1] != track.Digest(model.Message{Role: model.RoleAssistant, Content: "inner"}) {
		t.Errorf("steps %v; want the inner reply's digest second", out.Steps)
	}
	if len(agent.Requests) != 2 || len(editor.Requests) != 1 {
		t.Fatalf("the agent's model got %d requests, the editor %d; want 2 and 1", len(agent.Requests), len(editor.Requests))
	}
	inner := editor.Requests[0].Messages
	if len(inner) != 2 || inner[0].Content != "inner system" || inner[1].Content != "fix this" {
		t.Errorf("the aside sent %+v; want its own system prompt and message only", inner)
	}
	if outer := agent.Requests[1].Messages; len(outer) != 4 || outer[2].Content != "outer 1" || outer[3].Content != "second" {
		t.Errorf("the outer history %+v holds something of the aside's", outer)
	}

	type mark struct {
		kind, within string
		turn         int
	}
	var got []mark
	for _, ev := range rec.Events {
		got = append(got, mark{ev.Kind, ev.Within, ev.Turn})
	}
	want := []mark{
		{"request", "", 1}, {"response", "", 1},
		{"request", "run_workflow", 1}, {"response", "run_workflow", 1}, {"write", "run_workflow", 1},
		{"request", "", 2}, {"response", "", 2},
	}
	if !slices.Equal(got, want) {
		t.Errorf("events %v\nwant %v", got, want)
	}
	if msgs := rec.Events[2].Messages; len(msgs) != 2 || msgs[0].Content != "inner system" {
		t.Errorf("the aside's request event shows %+v; want its whole history", msgs)
	}
}

// TestAsideDefaultsToTheEpisodesModel: with no model of its own an aside
// asks env.Model.
func TestAsideDefaultsToTheEpisodesModel(t *testing.T) {
	chat := &tracktest.FakeChatter{}
	env := &track.Env{Model: chat, Rec: &tracktest.FakeRecorder{}}
	aside := track.NewConversation(env, "outer").Aside("inner", "x", nil)
	aside.Add(model.Message{Role: model.RoleUser, Content: "go"})
	if _, err := aside.Call(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if len(chat.Requests) != 1 || chat.Requests[0].Messages[0].Content != "inner" {
		t.Errorf("requests %+v; want the aside's one on env.Model", chat.Requests)
	}
}
