package testsupport

import (
	"errors"
	"sync"

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

// MemTrajectory is an episode's trajectory in memory: its events, no error.
type MemTrajectory struct {
	mu     sync.Mutex
	events []record.Event
}

// Record keeps ev.
func (m *MemTrajectory) Record(ev record.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events = append(m.events, ev)
}

// Events returns the recorded events, in order.
func (m *MemTrajectory) Events() []record.Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]record.Event(nil), m.events...)
}

// Err is nil: memory does not fill up.
func (*MemTrajectory) Err() error { return nil }

// Close does nothing.
func (*MemTrajectory) Close() error { return nil }
