package paired

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a closed interval [Low, High] at the comparison's confidence.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// ZFor is the two-sided normal quantile of a confidence level.
func ZFor(confidence float64) float64 {
	return distuv.UnitNormal.Quantile(1 - (1-confidence)/2)
}

// Wilson is the Wilson score interval for x successes of n trials at
// normal quantile z (no continuity correction); [0, 1] when n is 0.
func Wilson(x, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	nf := float64(n)
	p := float64(x) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{math.Max(0, center-half), math.Min(1, center+half)}
}

// NewcombePaired is Newcombe's interval (1998, method 10: hybrid score,
// no continuity correction) for the change in pass rate of paired data,
// new rate − old rate, at normal quantile z. It combines the Wilson
// intervals of the two rates with the correlation φ of the pairs, which is
// (Both·Neither − OnlyOld·OnlyNew − n/2)/√(product of the margins) when
// Both·Neither − OnlyOld·OnlyNew > n/2, 0 when it lies in [0, n/2], and
// the plain correlation when it is negative (and 0 when a margin is
// empty). It returns false with no pairs.
func NewcombePaired(t PassTable, z float64) (Interval, bool) {
	n := t.Both + t.OnlyOld + t.OnlyNew + t.Neither
	if n == 0 {
		return Interval{}, false
	}
	oldPass, newPass := t.Both+t.OnlyOld, t.Both+t.OnlyNew
	pOld, pNew := float64(oldPass)/float64(n), float64(newPass)/float64(n)
	wo, wn := Wilson(oldPass, n, z), Wilson(newPass, n, z)
	phi := 0.0
	margins := float64(oldPass) * float64(n-oldPass) * float64(newPass) * float64(n-newPass)
	if margins > 0 {
		a := float64(t.Both)*float64(t.Neither) - float64(t.OnlyOld)*float64(t.OnlyNew)
		switch half := float64(n) / 2; {
		case a > half:
			phi = (a - half) / math.Sqrt(margins)
		case a < 0:
			phi = a / math.Sqrt(margins)
		}
	}
	d := pNew - pOld
	lowNew, highOld := pNew-wn.Low, wo.High-pOld
	highNew, lowOld := wn.High-pNew, pOld-wo.Low
	return Interval{
		Low:  math.Max(-1, d-math.Sqrt(sq(lowNew)-2*phi*lowNew*highOld+sq(highOld))),
		High: math.Min(1, d+math.Sqrt(sq(highNew)-2*phi*highNew*lowOld+sq(lowOld))),
	}, true
}

// NewcombeIndependent is Newcombe's hybrid score interval (1998, method
// 10 for independent proportions) for newPassed/newN − oldPassed/oldN at
// normal quantile z. It returns false when a side is empty.
func NewcombeIndependent(oldPassed, oldN, newPassed, newN int, z float64) (Interval, bool) {
	if oldN == 0 || newN == 0 {
		return Interval{}, false
	}
	pOld, pNew := float64(oldPassed)/float64(oldN), float64(newPassed)/float64(newN)
	wo, wn := Wilson(oldPassed, oldN, z), Wilson(newPassed, newN, z)
	d := pNew - pOld
	return Interval{
		Low:  math.Max(-1, d-math.Hypot(pNew-wn.Low, wo.High-pOld)),
		High: math.Min(1, d+math.Hypot(wn.High-pNew, pOld-wo.Low)),
	}, true
}

func sq(x float64) float64 { return x * x }
