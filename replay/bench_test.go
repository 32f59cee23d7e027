package replay_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"bench/model"
	"bench/record"
	"bench/replay"
)

// agentTrajectory is a recorded agent episode of turns tool calls, each
// result of about resultBytes, ending with a text reply.
func agentTrajectory(turns, resultBytes int) (record.Episode, []record.Event) {
	result := strings.Repeat("x", resultBytes)
	var events []record.Event
	ep := record.Episode{Task: "t", Track: "agent", ExitReason: record.ExitDone}
	for i := range turns + 1 {
		req := request("")
		if i > 0 {
			req.Messages = []record.Message{{Role: model.RoleTool, ToolName: "read_file", Content: fmt.Sprint(i, result)}}
		}
		events = append(events, req, reply(fmt.Sprint("turn ", i), 100, 10))
		ep.ModelCalls++
		ep.PromptTokens += 100
		ep.CompletionTokens += 10
		if i < turns {
			events = append(events,
				record.Event{Kind: record.EventToolCall, Tool: "read_file", Args: `{"path":"a.py"}`},
				record.Event{Kind: record.EventToolResult, Tool: "read_file", Result: fmt.Sprint(i+1, result)})
		}
	}
	return ep, trajectory(append(events, record.Event{Kind: record.EventEnd, Exit: record.ExitDone})...)
}

// BenchmarkPlayer replays a 25-turn agent episode with 8 KiB tool results
// through a player (every event observed, every call served, Finish) and
// reports the cost per event.
func BenchmarkPlayer(b *testing.B) {
	ep, events := agentTrajectory(25, 8<<10)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := replay.NewPlayer(ep, events)
		if err != nil {
			b.Fatal(err)
		}
		w := p.Watch(&memTrajectory{events: make([]record.Event, 0, len(events))})
		for _, ev := range events {
			w.Record(ev)
			if ev.Kind == record.EventRequest {
				if _, err := p.Chat(ctx, model.Request{}); err != nil {
					b.Fatal(err)
				}
			}
		}
		fresh := ep
		if res := p.Finish(&fresh); !res.Identical {
			b.Fatalf("%+v", res)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
}
