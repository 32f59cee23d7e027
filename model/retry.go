package model

import (
	"context"
	"math/rand/v2"
	"time"
)

// maxBackoff caps one backoff delay.
const maxBackoff = 30 * time.Second

// retrier runs one call with a per-attempt timeout and retries 5xx replies
// and dropped connections with bounded exponential backoff and full jitter.
type retrier struct {
	max     int
	base    time.Duration
	timeout time.Duration
	edge    edge
}

// do calls attempt until it succeeds, fails for good, or the retries are
// spent. It returns the number of retries made. attempt must return errors
// already classified (*Error).
func (r retrier) do(ctx context.Context, attempt func(ctx context.Context) error) (int, error) {
	for retries := 0; ; retries++ {
		err := r.once(ctx, attempt)
		if err == nil || !retryable(err) || retries >= r.max {
			if e, ok := err.(*Error); ok {
				e.Retries = retries
			}
			return retries, err
		}
		if !sleep(ctx, r.backoff(retries)) {
			e := r.edge.classify(ctx, ctx.Err(), 0, "")
			e.Retries = retries + 1
			return retries + 1, e
		}
	}
}

// once runs one attempt under the per-attempt timeout.
func (r retrier) once(ctx context.Context, attempt func(ctx context.Context) error) error {
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	return attempt(actx)
}

// backoff is the delay before retry n (0-based): base·2ⁿ capped, then a
// uniformly random fraction of it in [½, 1] so that clients do not retry in step.
func (r retrier) backoff(n int) time.Duration {
	d := r.base << min(n, 20)
	if d <= 0 || d > maxBackoff {
		d = maxBackoff
	}
	half := d / 2
	return half + rand.N(half+1)
}

// sleep waits d or until ctx is done; it reports whether the wait completed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
