package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/track"
)

// fakeServer is a fake model client that fails as unreachable when down.
type fakeServer struct {
	name string
	down bool
}

func (f *fakeServer) Chat(context.Context, model.Request) (model.Response, error) {
	return model.Response{}, nil
}

// poolTrack is a fake track that asks env.Model nothing but fails the way
// a fakeServer that is down fails, after a short while.
func poolTrack(_ context.Context, env *track.Env) track.Outcome {
	time.Sleep(5 * time.Millisecond)
	if f, ok := env.Model.(*fakeServer); ok && f.down {
		return track.Outcome{Exit: record.ExitError, Err: &model.Error{Kind: model.ErrUnreachable}}
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
	jobs := PlanModels([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []int{1, 2, 3, 4, 1, 2, 3, 4})
	sink := &memSink{}
	if err := RunPool(context.Background(), poolConfig(), pool(&fakeServer{name: "a"}, &fakeServer{name: "b"}), sink, jobs, PoolOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(sink.episodes) != len(jobs) {
		t.Fatalf("%d episodes, want %d", len(sink.episodes), len(jobs))
	}
	hosts, twin := map[string]int{}, map[int]string{}
	for _, ep := range sink.episodes {
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
	jobs := PlanModels([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []int{1, 2, 3, 4, 5, 6})
	sink := &memSink{}
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
	for _, ep := range sink.episodes {
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
	jobs := PlanModels([]tasks.Task{quickTask()}, []string{"fake"}, []string{"m"}, []int{1, 2, 3, 4, 5, 6, 7, 8})
	sink := &memSink{}
	err := RunPool(context.Background(), poolConfig(), pool(&fakeServer{name: "a", down: true}, &fakeServer{name: "b", down: true}), sink, jobs, PoolOptions{})
	var stop *StopError
	if !errors.As(err, &stop) {
		t.Fatalf("err %v, want a StopError once both servers are out", err)
	}
	if len(sink.episodes) >= len(jobs)+2 {
		t.Errorf("%d episodes recorded: the run went on after the pool emptied", len(sink.episodes))
	}
}
