package runner

import (
	"context"
	"testing"
	"time"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
)

// fakeModelDelay is how long each fake server takes to answer, so that the
// model, not the harness, is the bottleneck.
const fakeModelDelay = 50 * time.Millisecond

// chatOnce is a fake track that asks the model one question and is done:
// an episode that costs one model call.
func chatOnce(ctx context.Context, env *track.Env) track.Outcome {
	if _, err := env.Model.Chat(ctx, model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "hi"}}}); err != nil {
		return track.Outcome{Exit: record.ExitError, Err: err}
	}
	return track.Outcome{Exit: record.ExitDone, ModelCalls: 1}
}

// poolRate runs episodes of one model call each on the first hosts of
// servers (one slot each) and returns the episodes per second.
func poolRate(b *testing.B, servers []*modeltest.Server, hosts, episodes int) float64 {
	var pool []Server
	for _, s := range servers[:hosts] {
		c, err := model.New(s.Config())
		if err != nil {
			b.Fatal(err)
		}
		pool = append(pool, Server{URL: s.URL, Slots: 1, Clients: map[string]model.Chatter{modeltest.DefaultModel: c}})
	}
	seeds := make([]int, episodes)
	for i := range seeds {
		seeds[i] = i
	}
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"chat"}, []string{modeltest.DefaultModel}, []string{""}, seeds)
	cfg := Config{RunID: "bench", Tracks: []track.Track{{Name: "chat", Run: chatOnce}}}
	sink := &tracktest.MemSink[Trajectory]{}
	start := time.Now()
	if err := RunPool(context.Background(), cfg, pool, sink, jobs, PoolOptions{}); err != nil {
		b.Fatal(err)
	}
	for _, ep := range sink.Episodes() {
		if ep.ExitReason != record.ExitDone {
			b.Fatalf("%s: %s %s", ep.Key(), ep.ExitReason, ep.Error)
		}
	}
	return float64(len(sink.Episodes())) / time.Since(start).Seconds()
}

// BenchmarkPoolThroughput measures episodes per second against one and two
// fake servers that each answer after fakeModelDelay, one episode at a time
// per server, and reports the speed-up of two (target: at least 1.8x).
func BenchmarkPoolThroughput(b *testing.B) {
	reply := modeltest.Always(modeltest.Text("ok").After(fakeModelDelay))
	servers := []*modeltest.Server{modeltest.NewOllama(b, reply), modeltest.NewOllama(b, reply)}
	var one, two float64
	for b.Loop() {
		one += poolRate(b, servers, 1, 16)
		two += poolRate(b, servers, 2, 16)
	}
	n := float64(b.N)
	b.ReportMetric(one/n, "eps/s-1host")
	b.ReportMetric(two/n, "eps/s-2hosts")
	b.ReportMetric(two/one, "speedup")
}
