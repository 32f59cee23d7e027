package paired

import (
	"math"
	"math/rand/v2"
	"testing"
)

var z95 = ZFor(0.95)

// wilsonByBisection solves the score equation |p̂ − p| = z·√(p(1−p)/n)
// for its two roots by bisection: the Wilson limits, found without the
// closed form.
func wilsonByBisection(x, n int, z float64) Interval {
	phat := float64(x) / float64(n)
	f := func(p float64) float64 { return math.Abs(phat-p) - z*math.Sqrt(p*(1-p)/float64(n)) }
	root := func(lo, hi float64) float64 { // f(lo) and f(hi) of opposite signs
		for range 200 {
			mid := (lo + hi) / 2
			if (f(mid) > 0) == (f(lo) > 0) {
				lo = mid
			} else {
				hi = mid
			}
		}
		return (lo + hi) / 2
	}
	iv := Interval{0, 1}
	if x > 0 {
		iv.Low = root(0, phat)
	}
	if x < n {
		iv.High = root(phat, 1)
	}
	return iv
}

func TestWilsonAgainstBisection(t *testing.T) {
	for _, c := range [][2]int{{0, 1}, {1, 1}, {0, 10}, {3, 10}, {10, 10}, {81, 263}, {1, 4}, {50, 100}} {
		got, want := Wilson(c[0], c[1], z95), wilsonByBisection(c[0], c[1], z95)
		if !near(got.Low, want.Low, 1e-9) || !near(got.High, want.High, 1e-9) {
			t.Errorf("Wilson(%d, %d) = %v, bisection gives %v", c[0], c[1], got, want)
		}
	}
	if got := Wilson(0, 0, z95); got != (Interval{0, 1}) {
		t.Errorf("Wilson(0, 0) = %v, want [0, 1]", got)
	}
}

func TestNewcombePairedPublishedValue(t *testing.T) {
	// Fagerland, Lydersen & Laake (2017), ch. 8, Cavo et al. (2012), as
	// the R package contingencytables tests it:
	// Newcombe_square_and_add_CI_paired_2x2(matrix(c(59, 6, 16, 80), 2,
	// byrow = TRUE)) → estimate −0.0621 (95% CI −0.1186 to −0.0046): first
	// measurement minus second. Here the first is "old", so the change new −
	// old is +0.0621 with interval [0.0046, 0.1186].
	tb := PassTable{Both: 59, OnlyOld: 6, OnlyNew: 16, Neither: 80}
	iv, ok := NewcombePaired(tb, z95)
	if !ok || !near(iv.Low, 0.0046, 5e-5) || !near(iv.High, 0.1186, 5e-5) {
		t.Errorf("NewcombePaired(Cavo) = %v, want [0.0046, 0.1186]", iv)
	}
}

func TestNewcombeIndependentPublishedValue(t *testing.T) {
	// Fagerland et al. (2017), ch. 4, Perondi et al. (2004):
	// Newcombe_hybrid_score_CI_2x2(matrix(c(7,27,1,33), nrow=2, byrow=TRUE))
	// → estimate 0.1765 (95% CI 0.0189 to 0.3404): 7/34 − 1/34.
	iv, ok := NewcombeIndependent(1, 34, 7, 34, z95)
	if !ok || !near(iv.Low, 0.0189, 5e-5) || !near(iv.High, 0.3404, 5e-5) {
		t.Errorf("NewcombeIndependent(Perondi) = %v, want [0.0189, 0.3404]", iv)
	}
	if _, ok := NewcombeIndependent(0, 0, 1, 2, z95); ok {
		t.Error("NewcombeIndependent with an empty side gave an interval")
	}
}

func TestNewcombePairedEdges(t *testing.T) {
	if _, ok := NewcombePaired(PassTable{}, z95); ok {
		t.Error("no pairs gave an interval")
	}
	// 8 pairs all passing: README.md's [−0.32, 0.32]. Both rates are 1,
	// their Wilson lower limit 8/(8 + z²), φ = 0 (a margin is empty).
	lo := 1 - 8/(8+z95*z95)
	if iv, _ := NewcombePaired(PassTable{Both: 8}, z95); !near(iv.Low, -lo, 1e-12) || !near(iv.High, lo, 1e-12) || !near(lo, 0.3244, 5e-5) {
		t.Errorf("8 pairs all passing: %v, want ±%v", iv, lo)
	}
	// All pairs concordant: the estimate 0 is inside and the interval is
	// not degenerate.
	for _, tb := range []PassTable{{Both: 8}, {Neither: 8}, {Both: 4, Neither: 4}, {OnlyNew: 1}, {OnlyOld: 3, OnlyNew: 3}} {
		iv, ok := NewcombePaired(tb, z95)
		n := tb.Both + tb.OnlyOld + tb.OnlyNew + tb.Neither
		d := float64(tb.OnlyNew-tb.OnlyOld) / float64(n)
		if !ok || iv.Low > d || iv.High < d || iv.High-iv.Low <= 0 || iv.Low < -1 || iv.High > 1 {
			t.Errorf("NewcombePaired(%+v) = %v, want a proper interval around %v within [-1, 1]", tb, iv, d)
		}
	}
}

func TestNewcombePairedCoverage(t *testing.T) {
	// Simulated coverage of the 95% interval for correlated pairs: near
	// its nominal level (Newcombe's method 10 is close to it on average).
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		n                      int
		both, onlyOld, onlyNew float64
	}{
		{40, 0.4, 0.1, 0.2},
		{24, 0.2, 0.05, 0.25},
		{64, 0.5, 0.15, 0.15},
	} {
		truth := c.onlyNew - c.onlyOld
		covered, trials := 0, 4000
		for range trials {
			var tb PassTable
			for range c.n {
				switch u := rng.Float64(); {
				case u < c.both:
					tb.Both++
				case u < c.both+c.onlyOld:
					tb.OnlyOld++
				case u < c.both+c.onlyOld+c.onlyNew:
					tb.OnlyNew++
				default:
					tb.Neither++
				}
			}
			if iv, _ := NewcombePaired(tb, z95); iv.Low <= truth && truth <= iv.High {
				covered++
			}
		}
		if rate := float64(covered) / float64(trials); rate < 0.925 || rate > 0.985 {
			t.Errorf("%+v: coverage %.3f, want near 0.95", c, rate)
		}
	}
}

// TestWilsonKnownValues: the interval at 95% of worked examples.
func TestWilsonKnownValues(t *testing.T) {
	for _, c := range []struct {
		passed, n int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662}, // the worked example of the Wilson interval on Wikipedia
		{5, 10, 0.2366, 0.7634},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{1, 4, 0.0456, 0.6994},
	} {
		got := Wilson(c.passed, c.n, ZFor(0.95))
		if !near(got.Low, c.low, 5e-5) || !near(got.High, c.high, 5e-5) {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.passed, c.n, got.Low, got.High, c.low, c.high)
		}
	}
	if got := Wilson(0, 0, ZFor(0.95)); got != (Interval{0, 1}) {
		t.Errorf("Wilson(0, 0, ZFor(0.95)) = %v, want [0, 1]", got)
	}
}
