package plan

import (
	"fmt"
	"time"

	"bench/internal/words"
	"bench/runner"
)

// Range is an estimate of a time: its most likely value and the least and
// most the wall times seen so far allow.
type Range struct {
	Low, Mid, High time.Duration
}

// String writes the range as "4m10s (3m–6m)", rounded to the second.
func (r Range) String() string {
	s := func(d time.Duration) string { return d.Round(time.Second).String() }
	if r.Low == r.High {
		return s(r.Mid)
	}
	return fmt.Sprintf("%s (%s–%s)", s(r.Mid), s(r.Low), s(r.High))
}

// Running is an episode a worker started at Since.
type Running struct {
	Job   runner.Job
	Since time.Time
}

// Estimator estimates the wall time left of a run: each episode still to
// run is expected to take what the episodes of its task, track and model
// took (else of its track, else of any), as observed in this session or,
// before any, in a calibration run; a running one what of that is left.
// The work left is spread over the workers.
//
// Smoothing: the time shown (Left) only moves within the range shown the
// time before, counted down by the time passed since. A new estimate
// outside it is shown at the range's nearer end, and the range widens to
// hold the new estimate's, so that the figure never jumps by more than
// the spread it showed, and it converges over the following episodes.
type Estimator struct {
	workers int
	cells   map[cellKey]*Stats
	tracks  map[string]*Stats
	all     Stats
	shown   *Range
	shownAt time.Time
	cal     *Calibration
}

// NewEstimator is an estimator for workers episodes at once, starting from
// the calibration c (nil for none).
func NewEstimator(workers int, c *Calibration) *Estimator {
	e := &Estimator{workers: max(1, workers), cells: map[cellKey]*Stats{}, tracks: map[string]*Stats{}, cal: c}
	if c != nil {
		for k, s := range c.cells {
			e.add(k, *s)
		}
	}
	return e
}

// Observe counts the wall time of a finished episode of task, track and model.
func (e *Estimator) Observe(task, track, model string, wall time.Duration) {
	s := Stats{}
	s.Add(wall)
	e.add(cellKey{task, track, model}, s)
}

// add counts s for cell k, its track and the whole.
func (e *Estimator) add(k cellKey, s Stats) {
	if e.cells[k] == nil {
		e.cells[k] = &Stats{}
	}
	e.cells[k].Merge(s)
	if e.tracks[k.track] == nil {
		e.tracks[k.track] = &Stats{}
	}
	e.tracks[k.track].Merge(s)
	e.all.Merge(s)
}

// expect is what an episode of j is expected to take.
func (e *Estimator) expect(j runner.Job) (Stats, bool) {
	if s := e.cells[cellKey{j.Task.Name, j.Track, j.Model}]; s != nil {
		return *s, true
	}
	if s := e.tracks[j.Track]; s != nil {
		return *s, true
	}
	return e.all, e.all.N > 0
}

// Estimate is the wall time the queued jobs and the running ones need at
// now, unsmoothed; false before any wall time is known.
func (e *Estimator) Estimate(now time.Time, queued []runner.Job, running []Running) (Range, bool) {
	var sum, longest Range
	add := func(s Stats, spent time.Duration) {
		r := Range{Low: max(0, s.Min-spent), Mid: max(0, s.Mean()-spent), High: max(0, s.Max-spent)}
		sum = Range{sum.Low + r.Low, sum.Mid + r.Mid, sum.High + r.High}
		longest = Range{max(longest.Low, r.Low), max(longest.Mid, r.Mid), max(longest.High, r.High)}
	}
	for _, j := range queued {
		s, ok := e.expect(j)
		if !ok {
			return Range{}, false
		}
		add(s, 0)
	}
	for _, r := range running {
		s, ok := e.expect(r.Job)
		if !ok {
			return Range{}, false
		}
		add(s, now.Sub(r.Since))
	}
	w := time.Duration(e.workers)
	// The work spread over the workers, and never less than its longest episode.
	return Range{max(sum.Low/w, longest.Low), max(sum.Mid/w, longest.Mid), max(sum.High/w, longest.High)}, true
}

// Left is Estimate smoothed as the Estimator says; false before any wall
// time is known.
func (e *Estimator) Left(now time.Time, queued []runner.Job, running []Running) (Range, bool) {
	fresh, ok := e.Estimate(now, queued, running)
	if !ok {
		return Range{}, false
	}
	if e.shown != nil {
		passed := max(0, now.Sub(e.shownAt))
		prev := Range{max(0, e.shown.Low-passed), max(0, e.shown.Mid-passed), max(0, e.shown.High-passed)}
		mid := min(max(fresh.Mid, prev.Low), prev.High)
		fresh = Range{Low: min(fresh.Low, mid), Mid: mid, High: max(fresh.High, mid)}
	}
	e.shown, e.shownAt = &fresh, now
	return fresh, true
}

// Before says, before the run, how long its queued jobs may take: from
// the calibration, or that the estimate comes after the first episodes.
func (e *Estimator) Before(queued []runner.Job) string {
	if len(queued) == 0 {
		return "nothing left to run"
	}
	r, ok := e.Estimate(time.Time{}, queued, nil)
	if !ok || e.cal == nil {
		return "estimated after the first episodes (--calibrate DIR, a previous run of the same model, gives one before)"
	}
	return fmt.Sprintf("about %s with %d at once, from %s of %s (the least and most each took there; it assumes every worker stays busy)",
		r, e.workers, words.Plural(e.cal.Episodes, "episode"), e.cal.Dir)
}
