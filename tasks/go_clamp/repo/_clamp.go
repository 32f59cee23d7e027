// Package clamp keeps numbers within bounds.
package clamp

// Clamp returns x limited to the range lo..hi.
func Clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return lo
	}
	return x
}

// Percent clamps p to 0..100.
func Percent(p int) int {
	return Clamp(p, 0, 100)
}
