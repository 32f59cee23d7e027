package replay_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bench/model"
	"bench/record"
	"bench/replay"
)

// trajectory numbers events as a trajectory file does.
func trajectory(events ...record.Event) []record.Event {
	for i := range events {
		events[i].Seq = i
	}
	return events
}

// request and reply are a recorded call's two events.
func request(within string, msgs ...record.Message) record.Event {
	return record.Event{Kind: record.EventRequest, Within: within, Messages: msgs, EstTokens: 50}
}

func reply(text string, prompt, completion int) record.Event {
	return record.Event{Kind: record.EventResponse, Reply: &record.Message{Role: model.RoleAssistant, Content: text},
		PromptTokens: prompt, CompletionTokens: completion, EstCompletion: 3, StopReason: model.StopEnd}
}

func user(text string) record.Message { return record.Message{Role: model.RoleUser, Content: text} }

// memTrajectory is a fake trajectory that keeps events in memory.
type memTrajectory struct{ events []record.Event }

func (m *memTrajectory) Record(ev record.Event) { m.events = append(m.events, ev) }
func (m *memTrajectory) Err() error             { return nil }
func (m *memTrajectory) Close() error           { return nil }

// TestPlayerServesTheRecordedReply: a request that matches is answered
// with the recorded reply and its token counts, the estimate of the
// recorded request, and the replay's own time; nothing differs.
func TestPlayerServesTheRecordedReply(t *testing.T) {
	rec := trajectory(request("", user("fix it")), reply("fixed", 120, 7), record.Event{Kind: record.EventEnd, Exit: record.ExitDone})
	ep := record.Episode{Task: "t", Track: "x", ModelCalls: 1, PromptTokens: 120, CompletionTokens: 7, ExitReason: record.ExitDone}
	p, err := replay.NewPlayer(ep, rec)
	if err != nil {
		t.Fatal(err)
	}
	traj := p.Watch(&memTrajectory{})
	traj.Record(request("", user("fix it")))
	resp, err := p.Chat(context.Background(), model.Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := model.Usage{PromptTokens: 120, CompletionTokens: 7, EstPromptTokens: 50, EstCompletionTokens: 3}
	if resp.Message.Content != "fixed" || resp.Message.Role != model.RoleAssistant || resp.Usage != want || resp.DoneReason != model.StopEnd || resp.ModelTime != 0 || resp.Retries != 0 {
		t.Fatalf("served %+v", resp)
	}
	traj.Record(reply("fixed", 120, 7))
	traj.Record(record.Event{Kind: record.EventEnd, Exit: record.ExitDone})
	fresh := ep
	res := p.Finish(&fresh)
	if !res.Identical || fresh.ExitReason != record.ExitDone {
		t.Fatalf("result %+v, exit %s", res, fresh.ExitReason)
	}
	if fresh.Replay == nil || *fresh.Replay != res {
		t.Fatalf("the episode carries replay %+v, want the result %+v", fresh.Replay, res)
	}
	if again := p.Finish(&fresh); again.Differences != res.Differences || !again.Identical {
		t.Fatalf("a second Finish changed the result: %+v", again)
	}
}

// TestPlayerStopsOnAnotherConversation: the recording's next call is the
// hybrid's inner call, the fresh track makes its own: the replay stops.
func TestPlayerStopsOnAnotherConversation(t *testing.T) {
	rec := trajectory(request("run_workflow", user("fix it")), reply("fixed", 1, 1), record.Event{Kind: record.EventEnd, Exit: record.ExitDone})
	p, err := replay.NewPlayer(record.Episode{Task: "t", Track: "hybrid", ModelCalls: 1, PromptTokens: 1, CompletionTokens: 1, ExitReason: record.ExitDone}, rec)
	if err != nil {
		t.Fatal(err)
	}
	traj := &memTrajectory{}
	w := p.Watch(traj)
	w.Record(request("", user("fix it")))
	_, err = p.Chat(context.Background(), model.Request{})
	var d *replay.DivergedError
	if !errors.As(err, &d) || d.ExitReason() != record.ExitDiverged || d.At.Seq != 0 || d.At.Fields != "turn, within" && d.At.Fields != "within" ||
		!strings.Contains(d.At.Stop, "the recording's next call is the call within run_workflow, the replayed track asked the track's own call") {
		t.Fatalf("err %v", err)
	}
	w.Record(record.Event{Kind: record.EventEnd, Exit: record.ExitError, Error: err.Error()})
	if end := traj.events[len(traj.events)-1]; end.Exit != record.ExitDiverged {
		t.Fatalf("end event exit %s", end.Exit)
	}
	ep := record.Episode{ExitReason: record.ExitError, ErrorKind: record.ErrorHarness, Error: err.Error()}
	if res := p.Finish(&ep); res.Stopped == nil || ep.ExitReason != record.ExitDiverged || ep.ErrorKind != "" {
		t.Fatalf("result %+v, episode %+v", res, ep)
	}
}

// TestPlayerReplaysTheModelsFailure: a recorded call whose failure the
// episode stood by (error kind request_too_large) fails again with that kind; a call with no
// request event before it stops the replay.
func TestPlayerReplaysTheModelsFailure(t *testing.T) {
	rec := trajectory(request("", user("fix it")), record.Event{Kind: record.EventEnd, Exit: record.ExitError, Error: "model server rejected the request: HTTP 413: the conversation is too long"})
	ep := record.Episode{Task: "t", Track: "workflow", ModelCalls: 1, ExitReason: record.ExitError, ErrorKind: record.ErrorRequestTooLarge}
	p, err := replay.NewPlayer(ep, rec)
	if err != nil {
		t.Fatal(err)
	}
	p.Watch(&memTrajectory{}).Record(request("", user("fix it")))
	_, err = p.Chat(context.Background(), model.Request{})
	if model.Kind(err) != record.ErrorRequestTooLarge || !strings.Contains(err.Error(), "the conversation is too long") {
		t.Fatalf("replayed failure %v (kind %q)", err, model.Kind(err))
	}
	_, err = p.Chat(context.Background(), model.Request{})
	var d *replay.DivergedError
	if !errors.As(err, &d) || !strings.Contains(d.At.Stop, "without recording its request") {
		t.Fatalf("a call without a request: %v", err)
	}
}

// TestNewPlayerRefusesInconsistentTrajectories: events that do not add up
// to their episode are refused, saying what is missing.
func TestNewPlayerRefusesInconsistentTrajectories(t *testing.T) {
	end := record.Event{Kind: record.EventEnd, Exit: record.ExitDone}
	ep := record.Episode{Task: "t", Track: "agent", ModelCalls: 2, PromptTokens: 2, CompletionTokens: 2, ExitReason: record.ExitDone}
	cases := map[string]struct {
		events []record.Event
		want   string
	}{
		"a call fewer":     {trajectory(request(""), reply("a", 1, 1), end), "holds 1 model calls, but episodes.jsonl says the episode made 2"},
		"a reply missing":  {trajectory(request(""), request(""), reply("a", 2, 2), end), "has a model call without a reply at seq 0, before later calls"},
		"tokens changed":   {trajectory(request(""), reply("a", 1, 1), request(""), reply("b", 5, 1), end), "has replies of 6 prompt and 2 completion tokens, but episodes.jsonl says 2 and 2"},
		"done, unanswered": {trajectory(request(""), reply("a", 1, 1), request(""), end), "has a model call without a reply at seq 2, but the episode ended done: the reply is missing"},
		"no events":        {nil, "is empty"},
	}
	for name, c := range cases {
		if _, err := replay.NewPlayer(ep, c.events); err == nil || !strings.Contains(err.Error(), "cannot replay t/agent/seed-0: its trajectory "+c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TestDivergenceShowsTheDifference: a long text is shown around its first
// difference, on one line.
func TestDivergenceShowsTheDifference(t *testing.T) {
	head := strings.Repeat("unchanged line\n", 200)
	rec := trajectory(record.Event{Kind: record.EventTestRun, Output: head + "FAILED (failures=2)\n" + head, TestsTotal: 6}, record.Event{Kind: record.EventEnd, Exit: record.ExitDone})
	p, err := replay.NewPlayer(record.Episode{Task: "t", Track: "oracle", ExitReason: record.ExitDone}, rec)
	if err != nil {
		t.Fatal(err)
	}
	p.Watch(&memTrajectory{}).Record(record.Event{Kind: record.EventTestRun, Output: head + "OK\n" + head, TestsTotal: 6})
	res := p.Finish(&record.Episode{ExitReason: record.ExitDone})
	f := res.First
	if f == nil || f.Fields != "output" || !strings.Contains(f.Want, `FAILED (failures=2)`) || !strings.Contains(f.Got, `OK\n`) ||
		!strings.Contains(f.Want, "(differs at byte 3000)") || len(f.Want) > 400 || strings.Contains(f.String(), "\n") {
		t.Fatalf("divergence %+v", f)
	}
	if res.Differences != 1 {
		t.Fatalf("%d differences, want 1 (the episode's verdict is the same)", res.Differences)
	}
}

// TestPlayerStopsWhereATimedOutRecordingEnds: a recording cut by the
// episode's time limit has no call after its last; the replay stops
// there, saying the recording ends, not that the track asked too much.
func TestPlayerStopsWhereATimedOutRecordingEnds(t *testing.T) {
	limit := "the episode ran past its limit of 1m0s (--episode-timeout)"
	rec := trajectory(request("", user("go")), reply("a", 1, 1), record.Event{Kind: record.EventEnd, Exit: record.ExitTimeout, Error: limit})
	p, err := replay.NewPlayer(record.Episode{Task: "t", Track: "agent", ModelCalls: 1, PromptTokens: 1, CompletionTokens: 1, ExitReason: record.ExitTimeout}, rec)
	if err != nil {
		t.Fatal(err)
	}
	w := p.Watch(&memTrajectory{})
	w.Record(request("", user("go")))
	if _, err := p.Chat(context.Background(), model.Request{}); err != nil {
		t.Fatal(err)
	}
	w.Record(reply("a", 1, 1))
	w.Record(request(""))
	_, err = p.Chat(context.Background(), model.Request{})
	var d *replay.DivergedError
	if !errors.As(err, &d) || d.At.Seq != -1 || d.At.FreshSeq != 2 || d.At.Stop != "the recording ends before this call: the recorded episode ended timeout: "+limit {
		t.Fatalf("past the recording's end: %v", err)
	}
}
