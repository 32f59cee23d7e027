package plan

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/record"
	"bench/record/recordtest"
	"bench/runner"
	"bench/tasks"
)

func job(task, track string) runner.Job {
	return runner.Job{Task: tasks.Task{Name: task}, Track: track, Model: "m", Seed: 1}
}

// TestEstimateSpreadsTheWork: four queued episodes of known times on two
// workers take half their sum; a running one counts what is left of it;
// the range runs from the least to the most seen.
func TestEstimateSpreadsTheWork(t *testing.T) {
	e := NewEstimator(2, nil)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if _, ok := e.Estimate(now, []runner.Job{job("a", "agent")}, nil); ok {
		t.Fatal("an estimate before any wall time is known")
	}
	e.Observe("a", "agent", "m", 60*time.Second)
	e.Observe("a", "agent", "m", 120*time.Second) // a: 60-120 s, mean 90
	e.Observe("b", "workflow", "m", 10*time.Second)
	q := []runner.Job{job("a", "agent"), job("a", "agent"), job("b", "workflow"), job("c", "workflow")} // c: workflow's 10 s
	got, _ := e.Estimate(now, q, []Running{{Job: job("a", "agent"), Since: now.Add(-30 * time.Second)}})
	// sums: low 60+60+10+10+30 = 170, mid 90+90+10+10+60 = 260, high 120+120+10+10+90 = 350; halved
	want := Range{85 * time.Second, 130 * time.Second, 175 * time.Second}
	if got != want {
		t.Errorf("estimate %v, want %v", got, want)
	}
	if got, _ := e.Estimate(now, []runner.Job{job("a", "agent")}, nil); got.Mid != 90*time.Second {
		t.Errorf("one episode on two workers: %v, want its own 90s", got)
	}
}

// TestLeftNeverSwingsPastItsRange: over a random run, each shown time
// left lies within the range shown before it, counted down by the time
// passed; without the smoothing (Estimate) it does not.
func TestLeftNeverSwingsPastItsRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	e := NewEstimator(1, nil)
	raw := NewEstimator(1, nil)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var queue []runner.Job
	for range 40 {
		queue = append(queue, job("a", "agent"))
	}
	var prev *Range
	var prevRaw *Range
	var at time.Time
	rawSwung := false
	for len(queue) > 0 {
		wall := time.Duration(5+rng.IntN(300)) * time.Second
		start := now
		for step := time.Duration(0); step < wall; step += 20 * time.Second {
			now = start.Add(step)
			running := []Running{{Job: queue[0], Since: start}}
			r, ok := e.Left(now, queue[1:], running)
			rr, _ := raw.Estimate(now, queue[1:], running)
			if ok && prev != nil {
				passed := now.Sub(at)
				lo, hi := max(0, prev.Low-passed), max(0, prev.High-passed)
				if r.Mid < lo || r.Mid > hi {
					t.Fatalf("at %v: shown %v, outside the range %v–%v shown before", now.Sub(start), r, lo, hi)
				}
				if prevRaw != nil && (rr.Mid < max(0, prevRaw.Low-passed) || rr.Mid > max(0, prevRaw.High-passed)) {
					rawSwung = true
				}
			}
			if ok {
				prev, at = &r, now
				prevRaw = &rr
			}
		}
		now = start.Add(wall)
		e.Observe("a", "agent", "m", wall)
		raw.Observe("a", "agent", "m", wall)
		queue = queue[1:]
	}
	if !rawSwung {
		t.Error("the unsmoothed estimate never left its range: the test cannot fail")
	}
}

// TestCalibration: a previous run's wall times are the estimate before
// the first episode; a run of another model is refused.
func TestCalibration(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "prev")
	recordtest.Write(t, dir, record.Run{ID: "prev", Model: "m", Models: []record.ModelRef{{Name: "m"}}, Tracks: []string{"agent"}, Seeds: []int{1, 2},
		Tasks: []record.TaskRef{{Name: "a"}}},
		record.Episode{Task: "a", Track: "agent", Model: "m", Seed: 1, ExitReason: record.ExitDone, WallMS: 40_000},
		record.Episode{Task: "a", Track: "agent", Model: "m", Seed: 2, ExitReason: record.ExitDone, WallMS: 80_000},
		record.Episode{Task: "a", Track: "agent", Model: "m", Seed: 3, ExitReason: record.ExitInterrupted, WallMS: 1})
	c, err := LoadCalibration(dir, []string{"m"})
	if err != nil || c.Episodes != 2 {
		t.Fatalf("calibration %+v, %v", c, err)
	}
	e := NewEstimator(1, c)
	got, ok := e.Left(time.Now(), []runner.Job{job("a", "agent"), job("b", "agent")}, nil)
	if want := (Range{80 * time.Second, 120 * time.Second, 160 * time.Second}); !ok || got != want {
		t.Errorf("calibrated estimate %v, %v; want %v", got, ok, want)
	}
	if _, err := LoadCalibration(dir, []string{"other"}); err == nil || !strings.Contains(err.Error(), "same model") {
		t.Errorf("another model: %v", err)
	}
	if _, err := LoadCalibration(filepath.Join(t.TempDir(), "none"), []string{"m"}); err == nil || !strings.HasPrefix(err.Error(), "--calibrate ") {
		t.Errorf("no folder: %v", err)
	}
}
