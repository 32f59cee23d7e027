package runner

import (
	"context"
	"errors"
	"sync"
	"testing"

	"bench/record"
	"bench/tasks"
	"bench/track"
)

// memSink is a fake Sink that keeps trajectories and episodes in memory.
type memSink struct {
	mu       sync.Mutex
	trajs    map[string]*memTrajectory
	episodes []record.Episode
	failAt   int // Append fails on this call (1-based); 0 never
}

func (s *memSink) Trajectory(task, tr string, seed, repeat int) (Trajectory, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := &memTrajectory{}
	if s.trajs == nil {
		s.trajs = map[string]*memTrajectory{}
	}
	s.trajs[task+"/"+tr+"/"+record.TrajectoryName(seed, repeat)] = m
	return m, nil
}

func (s *memSink) Append(ep record.Episode) error {
	if s.failAt > 0 && len(s.episodes)+1 == s.failAt {
		return errors.New("disk full")
	}
	s.episodes = append(s.episodes, ep)
	return nil
}

func TestRunRecordsEveryEpisodeOnce(t *testing.T) {
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	jobs := Plan(all, []string{"oracle"}, []int{1, 1})
	sink := &memSink{}
	var seen int
	if err := Run(context.Background(), Config{Tracks: Tracks()}, sink, jobs, 2, func(record.Episode) { seen++ }); err != nil {
		t.Fatal(err)
	}
	if len(sink.episodes) != len(jobs) || seen != len(jobs) {
		t.Fatalf("%d episodes, %d progress calls, want %d", len(sink.episodes), seen, len(jobs))
	}
	keys := map[string]bool{}
	for _, ep := range sink.episodes {
		if keys[ep.Key()] {
			t.Fatalf("%s recorded twice", ep.Key())
		}
		keys[ep.Key()] = true
		if !ep.Passed {
			t.Errorf("oracle %s failed: %+v", ep.Key(), ep)
		}
		if tr := sink.trajs[ep.Key()]; tr == nil || !tr.closed || tr.last().Kind != record.EventEnd {
			t.Errorf("%s: trajectory missing, unclosed or without end event", ep.Key())
		}
	}
}

func TestRunStopsWhenAppendFails(t *testing.T) {
	quick := func(context.Context, *track.Env) track.Outcome { return track.Outcome{Exit: record.ExitDone} }
	jobs := Plan([]tasks.Task{{Name: "x"}}, []string{"quick"}, []int{1, 2, 3, 4, 5, 6})
	sink := &memSink{failAt: 2}
	err := Run(context.Background(), Config{Tracks: []track.Track{{Name: "quick", Run: quick}}}, sink, jobs, 1, nil)
	if err == nil || len(sink.episodes) != 1 {
		t.Fatalf("err %v, %d episodes; want an error after 1", err, len(sink.episodes))
	}
}
