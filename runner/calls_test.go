package runner

import (
	"context"
	"sync"
	"testing"

	"bench/model"
	"bench/record"
	"bench/track"
	"bench/track/tracktest"
)

// TestRunPoolReportsEachModelCall: Call hears every model call of every
// episode, with the job that made it, as the episode's own count says.
func TestRunPoolReportsEachModelCall(t *testing.T) {
	threeCalls := func(ctx context.Context, env *track.Env) track.Outcome {
		for range 3 {
			if _, err := env.Model.Chat(ctx, model.Request{}); err != nil {
				return track.Outcome{Exit: record.ExitError, Err: err}
			}
		}
		return track.Outcome{Exit: record.ExitDone, ModelCalls: 3}
	}
	cfg := fakeTrackConfig(threeCalls)
	cfg.Model = &fakeServer{name: "a"}
	jobs := seedJobs(4)
	var mu sync.Mutex
	heard := map[string]int{}
	err := RunPool(context.Background(), cfg, onePool(2), &tracktest.MemSink[Trajectory]{}, jobs, PoolOptions{Call: func(j Job) {
		mu.Lock()
		heard[j.Key()]++
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if heard[j.Key()] != 3 {
			t.Errorf("%s: %d calls heard, want 3", j.Key(), heard[j.Key()])
		}
	}
	if got := countCalls(cfg, jobs[0], nil); got.Model != cfg.Model {
		t.Error("countCalls without a hook wraps the client")
	}
}
