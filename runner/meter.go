package runner

import (
	"context"
	"sync"
	"time"

	"bench/model"
)

// meter passes an episode's model calls on and sums, over all of them,
// failed ones included, how long the episode waited for the model (the
// client's measure, model_ms) and how long the server says it worked
// (server_ms): the two differ by the network, the queue and the load.
type meter struct {
	model.Chatter
	mu           sync.Mutex
	wait, server time.Duration
}

// Chat calls the model and counts the call's times.
func (m *meter) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	start := time.Now()
	resp, err := m.Chatter.Chat(ctx, req)
	wait := resp.Wall
	if wait == 0 { // a Chatter that does not measure: bench's own clock
		wait = time.Since(start)
	}
	m.mu.Lock()
	m.wait += wait
	m.server += resp.ServerTime
	m.mu.Unlock()
	return resp, err
}

// times are the sums so far, in milliseconds.
func (m *meter) times() (waitMS, serverMS int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.wait.Milliseconds(), m.server.Milliseconds()
}
