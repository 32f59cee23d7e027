// Package radix sorts float64s in time linear in their number: the
// tokens, estimates and turns of a report's cells, a million of them,
// which comparison sorts spent a tenth of the report's CPU on.
package radix

import (
	"cmp"
	"math"
	"slices"
)

// small is the length under which Floats leaves xs to slices.Sort, whose
// insertion sort is faster there than eight histograms.
const small = 256

// Floats sorts xs in increasing order, as slices.Sort orders them: a
// least-significant-digit radix sort of their bits, made to order as the
// numbers do, one pass per byte whose value varies (whole numbers below
// 2^21, as counts are, vary in three or four). A slice holding a NaN is
// left to slices.Sort, which puts NaNs first. −0 sorts before +0 (equal
// numbers, which slices.Sort leaves in any order).
func Floats(xs []float64) {
	if len(xs) < small || slices.ContainsFunc(xs, math.IsNaN) {
		slices.Sort(xs)
		return
	}
	keys, spare := make([]uint64, len(xs)), make([]uint64, len(xs))
	var counts [8][256]int
	for i, x := range xs {
		k := key(x)
		keys[i] = k
		for d := range counts {
			counts[d][byte(k>>(8*d))]++
		}
	}
	for d := range counts {
		if counts[d][byte(keys[0]>>(8*d))] == len(keys) {
			continue // every key has this byte: the pass would move nothing
		}
		at := 0
		for b, c := range counts[d] {
			counts[d][b] = at
			at += c
		}
		for _, k := range keys {
			b := byte(k >> (8 * d))
			spare[counts[d][b]] = k
			counts[d][b]++
		}
		keys, spare = spare, keys
	}
	for i, k := range keys {
		xs[i] = value(k)
	}
}

// Order returns the indices of xs in the order that sorts xs, ties in
// the order of their indices (as slices.SortStableFunc with cmp.Compare
// orders them, NaNs first): xs[Order(xs)[0]] is the least. The same radix
// sort as Floats, each key carrying its index.
func Order(xs []float64) []int {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	if len(xs) < small || slices.ContainsFunc(xs, math.IsNaN) {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
		return order
	}
	keys, spareKeys, spare := make([]uint64, len(xs)), make([]uint64, len(xs)), make([]int, len(xs))
	var counts [8][256]int
	for i, x := range xs {
		k := key(x)
		keys[i] = k
		for d := range counts {
			counts[d][byte(k>>(8*d))]++
		}
	}
	for d := range counts {
		if counts[d][byte(keys[0]>>(8*d))] == len(keys) {
			continue
		}
		at := 0
		for b, c := range counts[d] {
			counts[d][b] = at
			at += c
		}
		for i, k := range keys {
			b := byte(k >> (8 * d))
			spareKeys[counts[d][b]], spare[counts[d][b]] = k, order[i]
			counts[d][b]++
		}
		keys, spareKeys, order, spare = spareKeys, keys, spare, order
	}
	return order
}

// key maps x to a uint64 that orders as x does: a positive number's bits
// with the sign bit set, a negative number's bits all flipped.
func key(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// value is the number whose key is k.
func value(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}
