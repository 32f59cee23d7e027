package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
)

// fakeServer is a fake model client that fails as unreachable when down,
// and refuses bench's credentials (401) when refusing.
type fakeServer struct {
	name     string
	down     bool
	refusing bool
	// after, when set, holds every answer back until it is closed (or the
	// call's context ends): with a lostSink's lost, it orders two servers'
	// calls without sleeps.
	after <-chan struct{}
}

func (f *fakeServer) Chat(ctx context.Context, _ model.Request) (model.Response, error) {
	if f.after != nil {
		select {
		case <-f.after:
		case <-ctx.Done():
			return model.Response{}, ctx.Err()
		}
	}
	switch {
	case f.down:
		return model.Response{}, &model.Error{Kind: model.ErrUnreachable}
	case f.refusing:
		return model.Response{}, &model.Error{Kind: model.ErrAuth, Status: 401}
	}
	return model.Response{}, nil
}

// lostSink is an in-memory sink that closes lost once it has recorded a lost
// episode: the pool records an episode and books what it means under one
// lock, so a fake server that waits for lost answers after the booking.
type lostSink struct {
	tracktest.MemSink[Trajectory]
	lost chan struct{}
	once sync.Once
}

func (s *lostSink) Append(ep record.Episode) error {
	err := s.MemSink.Append(ep)
	if err == nil && ep.Lost() {
		s.once.Do(func() { close(s.lost) })
	}
	return err
}

// poolTrack is a fake track that makes one model call, after a short
// while, and fails the way the call fails.
func poolTrack(ctx context.Context, env *track.Env) track.Outcome {
	time.Sleep(5 * time.Millisecond)
	if _, err := env.Model.Chat(ctx, model.Request{}); err != nil {
		return track.Outcome{Exit: record.ExitError, Err: err}
	}
	return track.Outcome{Exit: record.ExitDone}
}

// pool is two fake servers a and b, one slot each.
func pool(a, b *fakeServer) []Server {
	return []Server{
		{URL: a.name, Slots: 1, Clients: map[string]model.Chatter{"m": a}},
		{URL: b.name, Slots: 1, Clients: map[string]model.Chatter{"m": b}},
	}
}

func poolConfig() Config {
	return Config{RunID: "r", Tracks: []track.Track{{Name: "fake", Run: poolTrack}}}
}

func TestRunPoolUsesEveryServerAndKeepsTwinsTogether(t *testing.T) {
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []string{""}, []int{1, 2, 3, 4, 1, 2, 3, 4})
	sink := &tracktest.MemSink[Trajectory]{}
	if err := RunPool(context.Background(), poolConfig(), pool(&fakeServer{name: "a"}, &fakeServer{name: "b"}), sink, jobs, PoolOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(sink.Episodes()) != len(jobs) {
		t.Fatalf("%d episodes, want %d", len(sink.Episodes()), len(jobs))
	}
	hosts, twin := map[string]int{}, map[int]string{}
	for _, ep := range sink.Episodes() {
		hosts[ep.Host]++
		if h, ok := twin[ep.Seed]; ok && h != ep.Host {
			t.Errorf("twins of seed %d ran on %s and %s", ep.Seed, h, ep.Host)
		}
		twin[ep.Seed] = ep.Host
		if ep.Model != "m" {
			t.Errorf("%s records model %q", ep.Key(), ep.Model)
		}
	}
	if hosts["a"] == 0 || hosts["b"] == 0 {
		t.Errorf("episodes per server %v: want both used", hosts)
	}
}

func TestRunPoolTakesADeadServerOutAndRedoesItsEpisodes(t *testing.T) {
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []string{""}, []int{1, 2, 3, 4, 5, 6})
	sink := &tracktest.MemSink[Trajectory]{}
	var mu sync.Mutex
	var warnings []string
	var progress int
	err := RunPool(context.Background(), poolConfig(), pool(&fakeServer{name: "a"}, &fakeServer{name: "b", down: true}), sink, jobs, PoolOptions{
		Warn:     func(w string) { mu.Lock(); warnings = append(warnings, w); mu.Unlock() },
		Progress: func(record.Episode) { progress++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	stands := map[string]record.Episode{}
	for _, ep := range sink.Episodes() {
		stands[ep.Key()] = ep // the later line stands, as record.Read keeps it
	}
	if len(stands) != len(jobs) || progress != len(jobs) {
		t.Fatalf("%d episodes stand, %d reported; want %d", len(stands), progress, len(jobs))
	}
	for k, ep := range stands {
		if ep.Lost() || ep.Host != "a" {
			t.Errorf("%s stands lost (%v) or from %s", k, ep.Lost(), ep.Host)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "b taken out of the pool") {
		t.Errorf("warnings %q; want one saying b left the pool", warnings)
	}
}

func TestRunPoolStopsWhenNoServerIsLeft(t *testing.T) {
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []string{""}, []int{1, 2, 3, 4, 5, 6, 7, 8})
	sink := &tracktest.MemSink[Trajectory]{}
	err := RunPool(context.Background(), poolConfig(), pool(&fakeServer{name: "a", down: true}, &fakeServer{name: "b", down: true}), sink, jobs, PoolOptions{})
	var stop *StopError
	if !errors.As(err, &stop) {
		t.Fatalf("err %v, want a StopError once both servers are out", err)
	}
	if len(sink.Episodes()) >= len(jobs)+2 {
		t.Errorf("%d episodes recorded: the run went on after the pool emptied", len(sink.Episodes()))
	}
}

// seedJobs is n jobs of quickTask on the fake track, seeds 1 to n.
func seedJobs(n int) []Job {
	seeds := make([]int, n)
	for i := range seeds {
		seeds[i] = i + 1
	}
	return PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{""}, []string{""}, seeds)
}

// onePool is one fake server taking slots episodes at once.
func onePool(slots int) []Server {
	return []Server{{URL: "a", Slots: slots, Clients: map[string]model.Chatter{"m": &fakeServer{name: "a"}}}}
}

// fakeTrackConfig is a Config whose only track, "fake", is fn.
func fakeTrackConfig(fn track.Func) Config {
	return Config{RunID: "r", Tracks: []track.Track{{Name: "fake", Run: fn}}}
}

func TestRunPoolRunsEveryJobOnceInOrder(t *testing.T) {
	jobs := seedJobs(20)
	sink := &tracktest.MemSink[Trajectory]{}
	var progress []string
	done := func(context.Context, *track.Env) track.Outcome { return track.Outcome{Exit: record.ExitDone} }
	err := RunPool(context.Background(), fakeTrackConfig(done), onePool(1), sink, jobs, PoolOptions{
		Progress: func(ep record.Episode) { progress = append(progress, ep.Key()) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sink.Episodes()) != len(jobs) || len(progress) != len(jobs) {
		t.Fatalf("%d episodes, %d progress calls, want %d", len(sink.Episodes()), len(progress), len(jobs))
	}
	for i, ep := range sink.Episodes() {
		if ep.Key() != jobs[i].Key() || progress[i] != jobs[i].Key() {
			t.Fatalf("episode %d is %s (progress %s), want %s: one slot runs the plan in order", i, ep.Key(), progress[i], jobs[i].Key())
		}
	}
}

func TestRunPoolFillsEverySlot(t *testing.T) {
	var running, peak atomic.Int32
	busy := func(context.Context, *track.Env) track.Outcome {
		cur := running.Add(1)
		for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		return track.Outcome{Exit: record.ExitDone}
	}
	sink := &tracktest.MemSink[Trajectory]{}
	if err := RunPool(context.Background(), fakeTrackConfig(busy), onePool(2), sink, seedJobs(8), PoolOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(sink.Episodes()) != 8 {
		t.Fatalf("%d episodes, want 8", len(sink.Episodes()))
	}
	if peak.Load() != 2 {
		t.Fatalf("peak concurrency %d, want the server's 2 slots", peak.Load())
	}
}

func TestRunPoolStopsSchedulingOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelAtThird := func(ctx context.Context, env *track.Env) track.Outcome {
		if env.Options.Seed == 3 {
			cancel()
		}
		if ctx.Err() != nil {
			return track.Outcome{Exit: record.ExitInterrupted, Err: ctx.Err()}
		}
		return track.Outcome{Exit: record.ExitDone}
	}
	sink := &tracktest.MemSink[Trajectory]{}
	if err := RunPool(ctx, fakeTrackConfig(cancelAtThird), onePool(1), sink, seedJobs(10), PoolOptions{}); err != nil {
		t.Fatalf("a cancelled run returned %v; an interrupt is not an error", err)
	}
	if len(sink.Episodes()) != 3 {
		t.Fatalf("%d episodes ran after a cancel at the third, want 3", len(sink.Episodes()))
	}
	if got := sink.Episodes()[2]; got.Seed != 3 || got.ExitReason != record.ExitInterrupted {
		t.Fatalf("the running episode (seed %d) ended %q, want seed 3 interrupted", got.Seed, got.ExitReason)
	}
}

// TestRunPoolStopsAtOnceOnARefusal: a server that refuses a request for a
// reason of the setup (here 401) stops the whole run at its first episode,
// with the other server still well: no more episodes start.
func TestRunPoolStopsAtOnceOnARefusal(t *testing.T) {
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []string{""}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	// a answers only once the pool has booked b's refusal, however the
	// goroutines are scheduled: closing a channel in b's reply instead let
	// a finish more jobs, under -race on a loaded machine, before the pool
	// had heard of the refusal.
	sink := &lostSink{lost: make(chan struct{})}
	a, b := &fakeServer{name: "a", after: sink.lost}, &fakeServer{name: "b", refusing: true}
	err := RunPool(context.Background(), poolConfig(), pool(a, b), sink, jobs, PoolOptions{})
	var stop *StopError
	if !errors.As(err, &stop) || !stop.Refused() || stop.Lost != 1 || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err %v, want a StopError for the refusal", err)
	}
	// b refused its first job; a may have finished the one it was running.
	if len(sink.Episodes()) > 2 {
		t.Errorf("%d episodes recorded: the run went on after the refusal", len(sink.Episodes()))
	}
}
