package report

import (
	"math"
	"strconv"
)

// sig6 rounds x to six significant digits, so that the report's figures do
// not depend on the last bits of floating-point arithmetic (which may differ
// between CPUs, e.g. where multiply-adds are fused).
func sig6(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// round rounds every computed figure of the report with sig6, and turns nil
// lists into empty ones so that the JSON document always has its arrays.
func (rep *Report) round() {
	for i := range rep.Tracks {
		t := &rep.Tracks[i]
		roundRate(t.Rate, t.Wilson)
	}
	for i := range rep.Rows {
		r := &rep.Rows[i]
		r.Runs, r.PassAtK, r.Exits = nonNil(r.Runs), nonNil(r.PassAtK), nonNil(r.Exits)
		roundRate(r.Rate, r.Wilson)
		for j := range r.PassAtK {
			r.PassAtK[j].P = sig6(r.PassAtK[j].P)
		}
	}
	for i := range rep.Ratios {
		r := &rep.Ratios[i]
		r.Ratio = sig6(r.Ratio)
		if r.Interval != nil {
			r.Interval.Low, r.Interval.High = sig6(r.Interval.Low), sig6(r.Interval.High)
		}
	}
	for i := range rep.McNemar {
		rep.McNemar[i].P = sig6(rep.McNemar[i].P)
	}
	rep.Tracks = nonNil(rep.Tracks)
	rep.Rows = nonNil(rep.Rows)
	rep.Ratios = nonNil(rep.Ratios)
	rep.McNemar = nonNil(rep.McNemar)
	rep.Sequences = nonNil(rep.Sequences)
	rep.MoreSeqs = nonNil(rep.MoreSeqs)
	rep.Twins = nonNil(rep.Twins)
	rep.Footnotes = nonNil(rep.Footnotes)
	for i := range rep.Sequences {
		rep.Sequences[i].Tools = nonNil(rep.Sequences[i].Tools)
	}
}

// roundRate rounds a rate and its interval, when there are.
func roundRate(rate *float64, iv *Interval) {
	if rate != nil {
		*rate = sig6(*rate)
	}
	if iv != nil {
		iv.Low, iv.High = sig6(iv.Low), sig6(iv.High)
	}
}

// nonNil returns xs, or an empty slice when it is nil.
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
