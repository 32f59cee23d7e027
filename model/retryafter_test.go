package model

import (
	"net/http"
	"testing"
	"time"
)

// TestRetryAfterReadsSecondsAndDates: Retry-After is whole seconds or an
// HTTP date, read against the time it arrived; a date past is no wait, a
// wait past a minute is a minute, and anything else is no Retry-After.
func TestRetryAfterReadsSecondsAndDates(t *testing.T) {
	now := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	cases := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0", 0, true},
		{"3600", maxRetryAfter, true},
		{now.Add(2 * time.Second).Format(http.TimeFormat), 2 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{now.Add(time.Hour).Format(http.TimeFormat), maxRetryAfter, true},
		{"", 0, false},
		{"-1", 0, false},
		{"soon", 0, false},
		{"1.5", 0, false},
	}
	for _, c := range cases {
		h := http.Header{}
		if c.v != "" {
			h.Set("Retry-After", c.v)
		}
		if got, ok := retryAfter(h, now); got != c.want || ok != c.ok {
			t.Errorf("Retry-After %q: %v %v, want %v %v", c.v, got, ok, c.want, c.ok)
		}
	}
}
