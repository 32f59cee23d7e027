package loop

import (
	"context"
	"testing"

	"bench/model"
	"bench/track/tracktest"
)

// BenchmarkAgentTurn measures the loop's own cost per turn (prompt
// bookkeeping, token estimate, events, one list_files call) with a model that
// answers at once.
func BenchmarkAgentTurn(b *testing.B) {
	const turns = 20
	chat := &tracktest.FakeChatter{Next: func(int, model.Request) tracktest.FakeReply {
		return tracktest.Say(tracktest.Calls("list_files", `{"path":"."}`))
	}}
	env, _ := newEnv(b, chat)
	b.ReportAllocs()
	for b.Loop() {
		chat.Requests = chat.Requests[:0]
		env.Rec = &tracktest.FakeRecorder{}
		env.MaxTurns = turns
		Agent(context.Background(), env)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(turns+1)), "ns/call")
}
