package replay

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"bench/record"
)

// DivergedError is what Player.Chat returns once the conversation can no
// longer follow the recording; it ends the track as a failed call does.
type DivergedError struct{ At record.Divergence }

// Error says where the replay stopped following the recording and why,
// without the values (they are in At).
func (e *DivergedError) Error() string {
	return "replay diverged at " + e.At.Where() + ": " + e.At.Stop
}

// ExitReason is the exit reason of an episode stopped by e, for a runner
// that asks its track's error for one.
func (e *DivergedError) ExitReason() record.ExitReason { return record.ExitDiverged }

// diff collects the fields of one step that differ, with both values.
type diff struct {
	fields, want, got []string
}

// text compares a long text field: the values are shortened around the
// first byte where they differ.
func (d *diff) text(field, want, got string) {
	if want == got {
		return
	}
	w, g := excerpts(want, got)
	d.add(field, w, g)
}

// value compares a short field of d.
func value[T comparable](d *diff, field string, want, got T) {
	if want != got {
		d.add(field, fmt.Sprintf("%q", fmt.Sprint(want)), fmt.Sprintf("%q", fmt.Sprint(got)))
	}
}

// add notes that field differs.
func (d *diff) add(field, want, got string) {
	d.fields = append(d.fields, field)
	d.want = append(d.want, field+"="+want)
	d.got = append(d.got, field+"="+got)
}

// empty reports whether nothing differed.
func (d *diff) empty() bool { return len(d.fields) == 0 }

// fill sets the fields, want and got of dv from d.
func (d *diff) fill(dv *record.Divergence) {
	dv.Fields = strings.Join(d.fields, ", ")
	dv.Want = capText(strings.Join(d.want, "; "), maxSide)
	dv.Got = capText(strings.Join(d.got, "; "), maxSide)
}

// Lengths of what a Divergence shows of each side.
const (
	excerptBefore = 40  // bytes kept before the first difference
	excerptAfter  = 120 // bytes kept from it on
	maxSide       = 600 // the most one side of a divergence holds
)

// excerpts returns want and got quoted, shortened to the part around the
// first byte where they differ, with the offset when it is not 0.
func excerpts(want, got string) (string, string) {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	start := max(0, i-excerptBefore)
	for start > 0 && !utf8.RuneStart(want[min(start, len(want)-1)]) {
		start--
	}
	cut := func(s string) string {
		if start >= len(s) {
			return `""`
		}
		end := min(len(s), i+excerptAfter)
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out := fmt.Sprintf("%q", s[start:end])
		if start > 0 {
			out = "…" + out
		}
		if end < len(s) {
			out += "…"
		}
		return out
	}
	w, g := cut(want), cut(got)
	if i > 0 {
		at := fmt.Sprintf(" (differs at byte %d)", i)
		w, g = w+at, g+at
	}
	return w, g
}

// capText shortens s to at most n bytes, at a rune boundary, marking the cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
