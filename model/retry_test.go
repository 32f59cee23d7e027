package model

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBackoffIsBoundedExponentialWithJitter(t *testing.T) {
	r := retrier{base: 100 * time.Millisecond}
	for n := 0; n < 40; n++ {
		want := min(100*time.Millisecond<<min(n, 20), maxBackoff)
		for range 50 {
			d := r.backoff(n)
			if d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v]", n, d, want/2, want)
			}
		}
	}
}

func TestRetrierStopsOnCancelDuringBackoff(t *testing.T) {
	r := retrier{max: 5, base: time.Hour, timeout: time.Second, edge: edge{host: "h"}}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	n, err := r.do(ctx, func(context.Context) error {
		calls++
		time.AfterFunc(20*time.Millisecond, cancel) // during the backoff that follows
		return &Error{Kind: ErrServer}
	})
	if !errors.Is(err, ErrInterrupted) || calls != 1 || n != 1 {
		t.Fatalf("err=%v calls=%d retries=%d", err, calls, n)
	}
}

func TestErrorKindsAreDistinct(t *testing.T) {
	kinds := []error{ErrModelNotFound, ErrNoToolSupport, ErrUnreachable, ErrServer, ErrTimeout, ErrInterrupted, ErrBadReply, ErrRequest}
	for _, k := range kinds {
		e := &Error{Kind: k, Host: "h", Model: "m"}
		for _, other := range kinds {
			if errors.Is(e, other) != (k == other) {
				t.Errorf("errors.Is(%v, %v) wrong", k, other)
			}
		}
		if errors.Is(e, context.Canceled) != (k == ErrInterrupted) {
			t.Errorf("%v vs context.Canceled", k)
		}
	}
}

func TestRetryWindowDefault(t *testing.T) {
	if got := (Config{}).withDefaults().RetryWindow; got != DefaultRetryWindow || DefaultRetryWindow != 60*time.Second {
		t.Errorf("default window %v (constant %v), want 60s", got, DefaultRetryWindow)
	}
	if got := (Config{RetryWindow: -1}).withDefaults().RetryWindow; got != 0 {
		t.Errorf("negative window became %v, want 0 (off)", got)
	}
}
