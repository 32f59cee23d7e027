package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"bench/plan"
	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// TestLessonHeartbeat: in a log, a running episode gets a line once 30 s
// have passed without one (which episode, how long, its calls so far), and
// not before; the clock is the test's.
func TestLessonHeartbeat(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	p := New(&b, 2, 0, 0)
	p.Finish() // no ticker: the test beats by hand
	p.mu.Lock()
	p.now = func() time.Time { return now }
	p.mu.Unlock()
	j := runner.Job{Task: tasks.Task{Name: "parse_date"}, Track: "agent", Seed: 1}
	p.Begin(j)
	p.Call(j)
	p.Call(j)
	beat := func(after time.Duration) string {
		p.mu.Lock()
		defer p.mu.Unlock()
		now = now.Add(after)
		b.Reset()
		p.beat()
		return b.String()
	}
	if got := beat(29 * time.Second); got != "" {
		t.Errorf("a line after 29 s: %q", got)
	}
	if got, want := beat(time.Second), "… parse_date agent seed-1: running 30s, 2 model calls sent so far\n"; got != want {
		t.Errorf("after 30 s: %q, want %q", got, want)
	}
	if got := beat(20 * time.Second); got != "" {
		t.Errorf("a line 20 s after the last: %q", got)
	}
	p.Call(j)
	if got := beat(10 * time.Second); !strings.Contains(got, "running 1m0s, 3 model calls sent so far") {
		t.Errorf("after 60 s: %q", got)
	}
}

// TestLessonPlainLinesShowTheETA: once an episode has finished, each line
// of a log gives the time left, from the wall times seen; the last one none.
func TestLessonPlainLinesShowTheETA(t *testing.T) {
	var b bytes.Buffer
	p := New(&b, 3, 0, 0)
	p.Finish()
	jobs := runner.PlanVariants([]tasks.Task{{Name: "leap_year"}}, []string{"workflow"}, []string{""}, []string{""}, []int{1, 2, 3})
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return now }
	p.Expect(jobs, plan.NewEstimator(1, nil), false)
	for i, j := range jobs {
		p.Begin(j)
		p.Episode(record.Episode{Task: "leap_year", Track: "workflow", Seed: j.Seed, ExitReason: record.ExitDone, WallMS: int64(10_000 * (i + 1))})
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	// After the first, 10 s: 2 left of 10 s each, 20 s. After the second, 20 s: 1 left of 15 s (10–20 s) fresh,
	// but the ETA shown before was 20 s exactly and no time has passed on the clock: it stays, the range widens.
	if len(lines) != 3 || !strings.HasSuffix(lines[0], "; ETA 20s") || !strings.HasSuffix(lines[1], "; ETA 20s (10s–20s)") || strings.Contains(lines[2], "ETA") {
		t.Errorf("lines:\n%s", b.String())
	}
}
