package tracktest

import (
	"errors"
	"sync"
	"sync/atomic"

	"bench/record"
)

// MemSink keeps a run's episodes and trajectories in memory. MemSink[T] is
// a runner.Sink when T is runner.Trajectory (this package cannot import
// runner, whose own tests use it): each trajectory is a *MemTrajectory.
type MemSink[T any] struct {
	mu       sync.Mutex
	trajs    map[string]*MemTrajectory
	episodes []record.Episode
	FailAt   int // Append fails on this call (1-based); 0 never
}

// Trajectory opens the in-memory trajectory of ep, replacing an earlier one.
func (s *MemSink[T]) Trajectory(ep record.Episode) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := &MemTrajectory{}
	if s.trajs == nil {
		s.trajs = map[string]*MemTrajectory{}
	}
	s.trajs[ep.Key()] = m
	return any(m).(T), nil
}

// Append keeps ep, or fails as a full disk on call FailAt.
func (s *MemSink[T]) Append(ep record.Episode) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.FailAt > 0 && len(s.episodes)+1 == s.FailAt {
		return errors.New("disk full")
	}
	s.episodes = append(s.episodes, ep)
	return nil
}

// Episodes returns the appended episodes, in the order they came.
func (s *MemSink[T]) Episodes() []record.Episode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]record.Episode(nil), s.episodes...)
}

// TrajectoryOf returns the trajectory of the episode with key, or nil.
func (s *MemSink[T]) TrajectoryOf(key string) *MemTrajectory {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trajs[key]
}

// MemTrajectory is an episode's trajectory in memory: a FakeRecorder of
// its events that never fails and knows whether it was closed.
type MemTrajectory struct {
	FakeRecorder
	closed atomic.Bool
}

// Last returns the last recorded event (the end event of a finished
// episode).
func (m *MemTrajectory) Last() record.Event { return m.Events[len(m.Events)-1] }

// Err is nil: memory does not fill up.
func (*MemTrajectory) Err() error { return nil }

// Close marks the trajectory closed.
func (m *MemTrajectory) Close() error {
	m.closed.Store(true)
	return nil
}

// Closed reports whether Close was called.
func (m *MemTrajectory) Closed() bool { return m.closed.Load() }
