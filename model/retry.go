package model

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// maxBackoff caps one backoff delay.
const maxBackoff = 30 * time.Second

// maxDownBackoff caps one delay while waiting for an unreachable server:
// a restarted server is found within seconds.
const maxDownBackoff = 5 * time.Second

// maxTimeoutRetries is how often a call that timed out is tried again: once,
// since a model slow enough to time out once is likely to again.
const maxTimeoutRetries = 1

// retrier runs one call with a per-attempt timeout and retries what another
// attempt may cure (the Answers table's Retry), with bounded exponential
// backoff and jitter: a 5xx, 429 or 408 up to max times, after the wait the
// server asks for with Retry-After when it does; a timeout up to
// maxTimeoutRetries times (never more than max); and an unreachable server
// for window after its first failure (never when max is 0).
type retrier struct {
	max     int
	window  time.Duration
	base    time.Duration
	timeout time.Duration
	edge    edge
}

func newRetrier(cfg Config, g edge) retrier {
	return retrier{max: cfg.MaxRetries, window: cfg.RetryWindow, base: cfg.RetryBase, timeout: cfg.Timeout, edge: g}
}

// tally counts the retries of one call by kind.
type tally struct {
	total, server, timeout, down int
	downSince                    time.Time
}

// do calls attempt until it succeeds, fails for good, or the retries are
// spent. It returns the number of retries made, also set on the returned
// *Error. attempt must return errors already classified (*Error).
func (r retrier) do(ctx context.Context, attempt func(ctx context.Context) error) (int, error) {
	var n tally
	for {
		err := r.once(ctx, attempt)
		delay, again := r.next(ctx, err, &n)
		if !again {
			if e, ok := err.(*Error); ok {
				e.Retries = n.total
			}
			return n.total, err
		}
		n.total++
		if !sleep(ctx, delay) {
			e := r.edge.classify(ctx, ctx.Err(), 0, "")
			e.Retries = n.total
			return n.total, e
		}
	}
}

// next decides whether err is worth another attempt, and after what delay;
// it counts the retry in n.
func (r retrier) next(ctx context.Context, err error, n *tally) (time.Duration, bool) {
	e, ok := err.(*Error)
	if !ok || ctx.Err() != nil {
		return 0, false
	}
	switch {
	case e.Kind == ErrServer || e.Status == 408:
		if n.server >= r.max {
			return 0, false
		}
		n.server++
		if e.hasRetryAfter {
			return e.RetryAfter, true // the server knows when it can answer
		}
		return r.backoff(n.server - 1), true
	case e.Kind == ErrTimeout:
		if n.timeout >= min(r.max, maxTimeoutRetries) {
			return 0, false
		}
		n.timeout++
		return r.backoff(0), true
	case e.Kind == ErrUnreachable:
		return r.nextDown(n)
	}
	return 0, false
}

// nextDown is next for an unreachable server: retried until window has
// passed since its first failure, the last delay cut to what is left.
func (r retrier) nextDown(n *tally) (time.Duration, bool) {
	if r.max <= 0 || r.window <= 0 {
		return 0, false
	}
	now := time.Now()
	if n.downSince.IsZero() {
		n.downSince = now
	}
	left := r.window - now.Sub(n.downSince)
	if left <= 0 {
		return 0, false
	}
	n.down++
	return min(r.backoff(n.down-1), maxDownBackoff, left), true
}

// once runs one attempt under the per-attempt timeout. An attempt that
// fails once its own deadline has passed (the caller's still running) is a
// timeout, whatever the client made of the cut: a body that stopped half
// way reads as malformed JSON, not as the slow server it was.
func (r retrier) once(ctx context.Context, attempt func(ctx context.Context) error) error {
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	err := attempt(actx)
	if err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) && !errors.Is(err, ErrTimeout) {
		return r.edge.classify(ctx, context.DeadlineExceeded, 0, "")
	}
	return err
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
