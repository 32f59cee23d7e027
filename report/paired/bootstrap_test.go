package paired

import (
	"math"
	"testing"
)

// bucket rounds a statistic so that equal values computed in different
// orders fall together.
func bucket(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// checkDistribution compares the frequencies of the replicates with an
// exact distribution, value by value, within 5 standard errors.
func checkDistribution(t *testing.T, what string, reps []float64, exact map[float64]float64) {
	t.Helper()
	freq := map[float64]float64{}
	for _, r := range reps {
		freq[bucket(r)] += 1 / float64(len(reps))
	}
	for v, p := range exact {
		se := math.Sqrt(p * (1 - p) / float64(len(reps)))
		if math.Abs(freq[v]-p) > 5*se+1e-12 {
			t.Errorf("%s: value %v drawn with frequency %.4f, exactly %.4f", what, v, freq[v], p)
		}
	}
	for v := range freq {
		if _, ok := exact[v]; !ok {
			t.Errorf("%s: value %v drawn, impossible by enumeration", what, v)
		}
	}
}

// median3 is the median of three numbers.
func median3(a, b, c float64) float64 {
	return a + b + c - math.Max(a, math.Max(b, c)) - math.Min(a, math.Min(b, c))
}

func TestBootstrapOneStratumAgainstEnumeration(t *testing.T) {
	s := &stratum{pairs: []pair{
		{1, obs{true, 10, 1}, obs{true, 15, 2}},
		{2, obs{false, 20, 3}, obs{true, 20, 3}},
		{3, obs{true, 40, 5}, obs{false, 30, 4}},
	}}
	// All 27 resamples of 3 pairs, equally likely.
	ratio, diff := map[float64]float64{}, map[float64]float64{}
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				ps := []pair{s.pairs[i], s.pairs[j], s.pairs[k]}
				r := median3(ps[0].new.tokens, ps[1].new.tokens, ps[2].new.tokens) / median3(ps[0].old.tokens, ps[1].old.tokens, ps[2].old.tokens)
				ratio[bucket(r)] += 1.0 / 27
				d := 0.0
				for _, p := range ps {
					d += (float64(b2i(p.new.passed)) - float64(b2i(p.old.passed))) / 3
				}
				diff[bucket(d)] += 1.0 / 27
			}
		}
	}
	reps := bootstrap([]*stratum{s}, false, 20000, 1, "one stratum")
	checkDistribution(t, "token ratio", reps.tokens, ratio)
	checkDistribution(t, "pass difference", reps.diff, diff)
}

func TestBootstrapTwoStageAgainstEnumeration(t *testing.T) {
	// Two tasks: a paired one with two pairs and an unpaired one with two
	// episodes a side. Two-stage: 2·2 task draws, then each drawn task's
	// units — 64 or 256 equally likely outcomes per task pattern.
	paired := &stratum{pairs: []pair{
		{1, obs{true, 100, 1}, obs{false, 150, 1}},
		{2, obs{false, 200, 1}, obs{true, 260, 1}},
	}}
	unpaired := &stratum{
		onlyOld: []obs{{false, 10, 1}, {true, 30, 1}},
		onlyNew: []obs{{true, 20, 1}, {true, 60, 1}},
	}
	strata := []*stratum{paired, unpaired}
	type unit struct {
		num, weight float64
		old, new    []float64
	}
	// draws lists the equally likely resamples of one task.
	draws := func(s *stratum) []unit {
		var out []unit
		if s.paired() {
			for _, a := range s.pairs {
				for _, b := range s.pairs {
					num := (float64(b2i(a.new.passed)-b2i(a.old.passed)) + float64(b2i(b.new.passed)-b2i(b.old.passed))) / 2
					out = append(out, unit{num, 1, []float64{a.old.tokens, b.old.tokens}, []float64{a.new.tokens, b.new.tokens}})
				}
			}
			return out
		}
		for _, o1 := range s.onlyOld {
			for _, o2 := range s.onlyOld {
				for _, n1 := range s.onlyNew {
					for _, n2 := range s.onlyNew {
						d := float64(b2i(n1.passed)+b2i(n2.passed))/2 - float64(b2i(o1.passed)+b2i(o2.passed))/2
						out = append(out, unit{d * 1, 1, []float64{o1.tokens, o2.tokens}, []float64{n1.tokens, n2.tokens}}) // w = 2·2/4 = 1
					}
				}
			}
		}
		return out
	}
	median := func(xs []float64) float64 { return medianOf(append([]float64{}, xs...)) }
	diff, ratio := map[float64]float64{}, map[float64]float64{}
	for _, first := range strata {
		for _, second := range strata {
			a, b := draws(first), draws(second)
			p := 0.25 / float64(len(a)*len(b))
			for _, x := range a {
				for _, y := range b {
					d := (x.num + y.num) / (x.weight + y.weight)
					diff[bucket(d)] += p
					r := median(append(append([]float64{}, x.new...), y.new...)) / median(append(append([]float64{}, x.old...), y.old...))
					ratio[bucket(r)] += p
				}
			}
		}
	}
	reps := bootstrap(strata, true, 40000, 2, "two stages")
	checkDistribution(t, "two-stage pass difference", reps.diff, diff)
	checkDistribution(t, "two-stage token ratio", reps.tokens, ratio)
}

func TestPercentile(t *testing.T) {
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(999 - i) // 0 … 999, reversed
	}
	iv, ok := percentile(xs, 0.95)
	// Empirical quantiles: the smallest x with F(x) ≥ 0.025 is the 25th
	// value, 24; for 0.975 the 975th, 974.
	if !ok || iv.Low != 24 || iv.High != 974 {
		t.Errorf("percentile = %v %v, want [24, 974]", iv, ok)
	}
	if _, ok := percentile([]float64{1, math.Inf(1)}, 0.95); ok {
		t.Error("an infinite replicate gave an interval")
	}
	if _, ok := percentile([]float64{1, math.NaN()}, 0.95); ok {
		t.Error("a NaN replicate gave an interval")
	}
}
