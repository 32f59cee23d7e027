package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
)

// TestRunRecordsEveryEpisodeOnce runs the oracle on two course tasks, each
// twice with the same seed, two at a time: every episode is recorded once,
// passes and has its trajectory closed with an end event. Two tasks are
// enough for the property; that the oracle passes every embedded task is
// verify's TestAllCachesVerifiedTasks.
func TestRunRecordsEveryEpisodeOnce(t *testing.T) {
	all := []tasks.Task{task(t, "leap_year"), task(t, "slugify")}
	jobs := PlanVariants(all, []string{"oracle"}, []string{""}, []string{""}, []int{1, 1})
	sink := &tracktest.MemSink[Trajectory]{}
	var seen int
	if err := RunPool(context.Background(), Config{Tracks: Tracks()}, []Server{{Slots: 2}}, sink, jobs, PoolOptions{Progress: func(record.Episode) { seen++ }}); err != nil {
		t.Fatal(err)
	}
	if len(sink.Episodes()) != len(jobs) || seen != len(jobs) {
		t.Fatalf("%d episodes, %d progress calls, want %d", len(sink.Episodes()), seen, len(jobs))
	}
	keys := map[string]bool{}
	for _, ep := range sink.Episodes() {
		if keys[ep.Key()] {
			t.Fatalf("%s recorded twice", ep.Key())
		}
		keys[ep.Key()] = true
		if !ep.Passed {
			t.Errorf("oracle %s failed: %+v", ep.Key(), ep)
		}
		if tr := sink.TrajectoryOf(ep.Key()); tr == nil || !tr.Closed() || tr.Last().Kind != record.EventEnd {
			t.Errorf("%s: trajectory missing, unclosed or without end event", ep.Key())
		}
	}
}

func TestRunStopsWhenAppendFails(t *testing.T) {
	quick := func(context.Context, *track.Env) track.Outcome { return track.Outcome{Exit: record.ExitDone} }
	jobs := PlanVariants([]tasks.Task{{Name: "x"}}, []string{"quick"}, []string{""}, []string{""}, []int{1, 2, 3, 4, 5, 6})
	sink := &tracktest.MemSink[Trajectory]{FailAt: 2}
	err := RunPool(context.Background(), Config{Tracks: []track.Track{{Name: "quick", Run: quick}}}, []Server{{Slots: 1}}, sink, jobs, PoolOptions{})
	if err == nil || len(sink.Episodes()) != 1 {
		t.Fatalf("err %v, %d episodes; want an error after 1", err, len(sink.Episodes()))
	}
}

// lostTrack is a fake track whose every model call fails as unreachable.
func lostTrack(context.Context, *track.Env) track.Outcome {
	return track.Outcome{Exit: record.ExitError, Err: &model.Error{Kind: model.ErrUnreachable}}
}

func TestRunStopsAfterConsecutiveInfraErrors(t *testing.T) {
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{""}, []string{""}, []int{1, 2, 3, 4, 5, 6})
	sink := &tracktest.MemSink[Trajectory]{}
	err := RunPool(context.Background(), Config{Tracks: []track.Track{{Name: "fake", Run: lostTrack}}}, []Server{{Slots: 1}}, sink, jobs, PoolOptions{})
	var stop *StopError
	if !errors.As(err, &stop) || stop.Lost != BreakerThreshold {
		t.Fatalf("err %v, want a StopError after %d lost episodes", err, BreakerThreshold)
	}
	if len(sink.Episodes()) != BreakerThreshold {
		t.Fatalf("%d episodes recorded, want %d: no new episode starts once the breaker opens", len(sink.Episodes()), BreakerThreshold)
	}
	if !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("the error does not say what failed: %v", err)
	}
}

func TestRunBreakerCountsOnlyConsecutiveLosses(t *testing.T) {
	n := 0
	flaky := func(ctx context.Context, env *track.Env) track.Outcome {
		n++
		if n%3 == 0 { // every third episode reaches the server
			return track.Outcome{Exit: record.ExitDone}
		}
		return lostTrack(ctx, env)
	}
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{""}, []string{""}, []int{1, 2, 3, 4, 5, 6})
	sink := &tracktest.MemSink[Trajectory]{}
	if err := RunPool(context.Background(), Config{Tracks: []track.Track{{Name: "fake", Run: flaky}}}, []Server{{Slots: 1}}, sink, jobs, PoolOptions{}); err != nil {
		t.Fatalf("two losses in a row stopped the run: %v", err)
	}
	if len(sink.Episodes()) != 6 {
		t.Fatalf("%d episodes, want 6", len(sink.Episodes()))
	}
}

func TestPendingRedoesLostAndInterrupted(t *testing.T) {
	jobs := PlanVariants([]tasks.Task{quickTask()}, []string{"fake"}, []string{""}, []string{""}, []int{1, 2, 3, 4})
	done := []record.Episode{
		{Task: "quick", Track: "fake", Seed: 1, ExitReason: record.ExitDone},
		{Task: "quick", Track: "fake", Seed: 2, ExitReason: record.ExitError, ErrorKind: record.ErrorServer},
		{Task: "quick", Track: "fake", Seed: 3, ExitReason: record.ExitError, ErrorKind: record.ErrorModel},
		{Task: "quick", Track: "fake", Seed: 4, ExitReason: record.ExitInterrupted},
	}
	var seeds []int
	for _, j := range Pending(jobs, done) {
		seeds = append(seeds, j.Seed)
	}
	if fmt.Sprint(seeds) != "[2 4]" {
		t.Fatalf("pending seeds %v, want [2 4]: the lost and the interrupted one, not the model's own error", seeds)
	}
}
