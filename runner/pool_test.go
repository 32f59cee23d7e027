package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"bench/record"
	"bench/tasks"
)

func fakeJobs(n int) []Job {
	seeds := make([]int, n)
	for i := range seeds {
		seeds[i] = i + 1
	}
	return Plan([]tasks.Task{{Name: "t"}}, []string{"oracle"}, seeds)
}

func TestDispatchRunsEveryJobOnceInOrder(t *testing.T) {
	jobs := fakeJobs(20)
	var got []string
	Dispatch(context.Background(), jobs, 1, func(_ context.Context, j Job) record.Episode {
		return record.Episode{Task: j.Task.Name, Track: j.Track, Seed: j.Seed}
	}, func(ep record.Episode) { got = append(got, ep.Key()) })
	if len(got) != 20 {
		t.Fatalf("%d episodes, want 20", len(got))
	}
	for i, k := range got {
		if k != jobs[i].Key() {
			t.Fatalf("episode %d is %s, want %s", i, k, jobs[i].Key())
		}
	}
}

func TestDispatchUsesParallelWorkers(t *testing.T) {
	var running, peak atomic.Int32
	var n int
	Dispatch(context.Background(), fakeJobs(8), 2, func(_ context.Context, j Job) record.Episode {
		cur := running.Add(1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		return record.Episode{}
	}, func(record.Episode) { n++ })
	if n != 8 {
		t.Fatalf("%d episodes, want 8", n)
	}
	if peak.Load() != 2 {
		t.Fatalf("peak concurrency %d, want 2", peak.Load())
	}
}

func TestDispatchStopsSchedulingOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got []record.Episode
	Dispatch(ctx, fakeJobs(10), 1, func(ctx context.Context, j Job) record.Episode {
		if j.Seed == 3 {
			cancel()
		}
		exit := record.ExitDone
		if ctx.Err() != nil {
			exit = record.ExitInterrupted
		}
		return record.Episode{Seed: j.Seed, ExitReason: exit}
	}, func(ep record.Episode) { got = append(got, ep) })
	if len(got) != 3 {
		t.Fatalf("%d episodes ran after a cancel at the third, want 3", len(got))
	}
	if got[2].ExitReason != record.ExitInterrupted {
		t.Fatalf("the running episode ended %q, want interrupted", got[2].ExitReason)
	}
}
