package paired

import (
	"math"
	"slices"
	"testing"
)

// exactRatioLaw enumerates the two-stage bootstrap of the token ratio over
// strata of pairs: every draw of the tasks, then every draw of each drawn
// task's pairs, equally likely. It returns the ratios' distinct values,
// ascending, and each one's probability.
func exactRatioLaw(strata [][][2]float64) (values, probs []float64) {
	law := map[float64]float64{}
	var draws func(s [][2]float64, k int, prefix [][2]float64, visit func([][2]float64))
	draws = func(s [][2]float64, k int, prefix [][2]float64, visit func([][2]float64)) {
		if k == 0 {
			visit(prefix)
			return
		}
		for _, p := range s {
			draws(s, k-1, append(prefix, p), visit)
		}
	}
	median := func(pairs [][2]float64, side int) float64 {
		xs := make([]float64, len(pairs))
		for i, p := range pairs {
			xs[i] = p[side]
		}
		return medianOf(xs)
	}
	var tasks func(k int, drawn [][][2]float64)
	tasks = func(k int, drawn [][][2]float64) {
		if k == len(strata) {
			var each func(i int, pairs [][2]float64, p float64)
			each = func(i int, pairs [][2]float64, p float64) {
				if i == len(drawn) {
					law[bucket(median(pairs, 1)/median(pairs, 0))] += p
					return
				}
				draws(drawn[i], len(drawn[i]), nil, func(d [][2]float64) {
					each(i+1, append(slices.Clone(pairs), d...), p/math.Pow(float64(len(drawn[i])), float64(len(drawn[i]))))
				})
			}
			each(0, nil, math.Pow(float64(len(strata)), -float64(len(strata))))
			return
		}
		for _, s := range strata {
			tasks(k+1, append(drawn, s))
		}
	}
	tasks(0, nil)
	values = slices.Sorted(func(yield func(float64) bool) {
		for v := range law {
			if !yield(v) {
				return
			}
		}
	})
	for _, v := range values {
		probs = append(probs, law[v])
	}
	return values, probs
}

// TestGoldenIntervalsAgainstExactLaw checks the pooled token-ratio
// intervals of the goldens that drawing counts changed against the exact
// law of the bootstrap, enumerated: each end of the 2000-resample interval
// is a value where the exact distribution function crosses 2.5% (97.5%)
// within Monte Carlo error (4 standard errors of an empirical quantile).
// The data are the goldens' pairs (old, new tokens per task): the agent
// against the workflow of report/testdata/synthetic-run (report goldens,
// the high end moved from 14.53 to 14.55, both within the band), and the
// agent of synthetic-run against synthetic-new (compare golden, the low
// end moved from 0.170 to 0.250: the exact law puts 2.503% at or below
// 0.170, so either is what 2000 resamples give).
func TestGoldenIntervalsAgainstExactLaw(t *testing.T) {
	cases := []struct {
		name   string
		strata [][][2]float64
	}{
		{"report: agent against workflow", [][][2]float64{
			{{850, 6020}, {848, 5000}, {905, 17900}, {850, 6250}}, // parse_date
			{{540, 3310}, {539, 1290}, {540, 10100}, {540, 3310}}, // leap_year
		}},
		{"compare: agent, old against new", [][][2]float64{
			{{6020, 6021}, {5000, 5002}, {17900, 17903}},
			{{3310, 1638}, {1290, 1676}, {10100, 1714}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var strata []*stratum
			for _, task := range c.strata {
				s := &stratum{}
				for i, p := range task {
					s.pairs = append(s.pairs, pair{i, obs{tokens: p[0], turns: 1}, obs{tokens: p[1], turns: 1}})
				}
				strata = append(strata, s)
			}
			values, probs := exactRatioLaw(c.strata)
			cdfBelow := func(x float64) (below, atOrBelow float64) {
				for i, v := range values {
					if v < bucket(x) {
						below += probs[i]
					} else if v == bucket(x) {
						atOrBelow = below + probs[i]
					}
				}
				return below, atOrBelow
			}
			reps := bootstrap(strata, true, DefaultResamples, 1, "pooled/agent/qwen3:8b")
			iv, ok := percentile(reps.tokens, 0.95)
			if !ok {
				t.Fatal("no interval")
			}
			for _, end := range []struct {
				x, q float64
			}{{iv.Low, 0.025}, {iv.High, 0.975}} {
				se := math.Sqrt(end.q * (1 - end.q) / DefaultResamples)
				below, at := cdfBelow(end.x)
				if at == 0 || below > end.q+4*se || at < end.q-4*se {
					t.Errorf("the %v quantile %v: the exact law has %.4f below it and %.4f at or below (want %v within ±%.4f)", end.q, end.x, below, at, end.q, 4*se)
				}
			}
			t.Logf("interval [%v, %v]", iv.Low, iv.High)
		})
	}
}
