package paired

import "fmt"

// Options are the settings of Compare. The zero value of a field means its
// default.
type Options struct {
	Alpha      float64 // significance level of every test; default 0.05
	Confidence float64 // level of every interval; default 0.95
	// AcrossTracks leaves the track out of the pairing key: the two sides
	// are two tracks of the same runs (agent against workflow), paired by
	// task, model, seed and repeat.
	AcrossTracks bool
	// AcrossModels leaves the model out of the pairing key: the two sides
	// differ in model, which is what is compared. Set it unless both
	// sides hold the same models (as bench compare does when each side
	// holds one model and they differ).
	AcrossModels bool
	Effect       float64 // the change in pass rate SeedsNeeded powers for; 0 = the observed one
	Power        float64 // the power SeedsNeeded asks for; default 0.8
	Seed         uint64  // seeds every bootstrap: the same data and Seed give the same intervals
	Resamples    int     // bootstrap resamples; default 2000
	// PooledOnly leaves Comparison.Cells empty: only the pooled answers
	// are computed (each has its own bootstrap stream, so they are the
	// same either way), for a caller that reads no cell.
	PooledOnly bool
}

// Defaults of Options.
const (
	DefaultAlpha      = 0.05
	DefaultConfidence = 0.95
	DefaultPower      = 0.8
	DefaultResamples  = 2000
)

// withDefaults fills in the defaults and checks the ranges.
func (o Options) withDefaults() (Options, error) {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if o.Power == 0 {
		o.Power = DefaultPower
	}
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"alpha", o.Alpha}, {"confidence", o.Confidence}, {"power", o.Power}} {
		if !(f.v > 0 && f.v < 1) {
			return o, fmt.Errorf("%s %v is not between 0 and 1", f.name, f.v)
		}
	}
	if !(o.Effect >= 0 && o.Effect <= 1) {
		return o, fmt.Errorf("effect %v is not a change in pass rate between 0 and 1", o.Effect)
	}
	if o.Resamples < 100 || o.Resamples > 1_000_000 {
		return o, fmt.Errorf("resamples %d is not between 100 and 1000000", o.Resamples)
	}
	return o, nil
}
