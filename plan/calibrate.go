package plan

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"bench/record"
	"bench/runner"
)

// Calibration is how long the episodes of a previous run took, per task,
// track and model: what --calibrate DIR reads to estimate a run's wall
// time before it starts.
type Calibration struct {
	Dir      string
	Episodes int // the finished episodes it holds, with a wall time
	cells    map[cellKey]*Stats
}

// cellKey is one task × track × model.
type cellKey struct{ task, track, model string }

// Stats is a set of wall times: their number, sum, least and most.
type Stats struct {
	N             int
	Sum, Min, Max time.Duration
}

// Add counts one wall time.
func (s *Stats) Add(d time.Duration) {
	if s.N == 0 || d < s.Min {
		s.Min = d
	}
	if d > s.Max {
		s.Max = d
	}
	s.N++
	s.Sum += d
}

// Merge counts every wall time of o.
func (s *Stats) Merge(o Stats) {
	if o.N == 0 {
		return
	}
	if s.N == 0 || o.Min < s.Min {
		s.Min = o.Min
	}
	s.Max = max(s.Max, o.Max)
	s.N += o.N
	s.Sum += o.Sum
}

// Mean is the average wall time; 0 with none.
func (s Stats) Mean() time.Duration {
	if s.N == 0 {
		return 0
	}
	return s.Sum / time.Duration(s.N)
}

// LoadCalibration reads the run in dir as the calibration of a run of
// models: it must have asked every one of them (a run of no model, only
// a run of no model). Its episodes that stand (not lost, not interrupted)
// count.
func LoadCalibration(dir string, models []string) (*Calibration, error) {
	data, err := record.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("--calibrate %s: %w", dir, err)
	}
	var had []string
	for _, m := range data.Run.Models {
		had = append(had, m.Name)
	}
	if len(had) == 0 && data.Run.Model != "" {
		had = []string{data.Run.Model}
	}
	for _, m := range models {
		if !slices.Contains(had, m) {
			return nil, fmt.Errorf("--calibrate %s: that run asked %s, not %s; give a previous run of the same model (its wall times are this one's estimate)", dir, orNone(had), m)
		}
	}
	if len(models) == 0 && len(had) > 0 {
		return nil, fmt.Errorf("--calibrate %s: that run asked %s, and this one asks no model; give a previous run of the same tracks", dir, strings.Join(had, ", "))
	}
	c := &Calibration{Dir: dir, cells: map[cellKey]*Stats{}}
	for _, ep := range data.Episodes {
		if !runner.Finished(ep) || ep.WallMS <= 0 {
			continue
		}
		k := cellKey{ep.Task, ep.Track, ep.Model}
		if c.cells[k] == nil {
			c.cells[k] = &Stats{}
		}
		c.cells[k].Add(time.Duration(ep.WallMS) * time.Millisecond)
		c.Episodes++
	}
	if c.Episodes == 0 {
		return nil, fmt.Errorf("--calibrate %s: it holds no finished episode with a wall time", dir)
	}
	return c, nil
}

// orNone lists names, or says "no model".
func orNone(names []string) string {
	if len(names) == 0 {
		return "no model"
	}
	return strings.Join(names, ", ")
}

// ForRun is the plan of the session s, whose folder the user named dir
// (Of), and its wall-time estimator: from the episodes of the run in
// calibrate when it is not "", else from the episodes as they finish.
func ForRun(s *runner.Session, dir, calibrate string) (Plan, *Estimator, error) {
	var models []string
	if runner.NeedsAnyModel(s.Run.Tracks) {
		models = s.ModelNames()
	}
	var cal *Calibration
	if calibrate != "" {
		var err error
		if cal, err = LoadCalibration(calibrate, models); err != nil {
			return Plan{}, nil, err
		}
	}
	pl, err := Of(s, dir)
	if err != nil {
		return Plan{}, nil, err
	}
	return pl, NewEstimator(pl.Workers, cal), nil
}
