package runner

import (
	"sync"

	"bench/model"
	"bench/record"
)

// tally passes events on to an episode's trajectory and counts, from its
// response events, the retries the client needed and the replies cut off
// at the reply cap.
type tally struct {
	Trajectory
	mu      sync.Mutex
	retries int
	cut     int
}

// Record counts ev when it is a response and records it.
func (t *tally) Record(ev record.Event) {
	if ev.Kind == record.EventResponse {
		t.mu.Lock()
		t.retries += ev.Retries
		if ev.StopReason == model.StopLength {
			t.cut++
		}
		t.mu.Unlock()
	}
	t.Trajectory.Record(ev)
}

// counts returns the retries and cut replies seen so far.
func (t *tally) counts() (retries, cut int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.retries, t.cut
}
