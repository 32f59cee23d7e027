package runflags

import (
	"slices"
	"strings"
	"testing"
)

// TestParseSeedsRanges: a range a..b stands for every seed from a to b,
// mixed with single seeds and kept in order with repeats (twins); a range
// backwards, open or too long is refused with the flag named.
func TestParseSeedsRanges(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"1..8", []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{"3", []int{3}},
		{"0..2,2,7", []int{0, 1, 2, 2, 7}},
		{" 5..5 ", []int{5}},
	} {
		got, err := ParseSeeds(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseSeeds(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"8..1", "1..", "..3", "1..x", "1..2..3", "0..2000000", "-1..3"} {
		if _, err := ParseSeeds(in); err == nil || !strings.Contains(err.Error(), "--seeds") {
			t.Errorf("ParseSeeds(%q) = %v; want an error naming --seeds", in, err)
		}
	}
}
