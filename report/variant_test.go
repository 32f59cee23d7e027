package report

import (
	"slices"
	"testing"

	"bench/record"
)

// TestSplitVariant: a dimension's value is taken out of a variant, the
// other dimensions' values kept in their order.
func TestSplitVariant(t *testing.T) {
	for _, c := range []struct {
		variant, name, value, rest string
		ok                         bool
	}{
		{"max-turns=5 posture=on", "posture", "on", "max-turns=5", true},
		{"max-turns=5 posture=on", "max-turns", "5", "posture=on", true},
		{"posture=off", "posture", "off", "", true},
		{"posture=off", "max-turns", "", "posture=off", false},
		{"", "posture", "", "", false},
	} {
		v, rest, ok := splitVariant(c.variant, c.name)
		if v != c.value || rest != c.rest || ok != c.ok {
			t.Errorf("splitVariant(%q, %q) = %q, %q, %v; want %q, %q, %v", c.variant, c.name, v, rest, ok, c.value, c.rest, c.ok)
		}
	}
}

// TestVariantRankOrdersAsTheFlags: variants sort as the run lists them
// (25 after 5, not before it as by name), and a variant no run lists after
// those it does.
func TestVariantRankOrdersAsTheFlags(t *testing.T) {
	r := variantRank{}
	for _, v := range record.Variants([]record.Dimension{{Name: "max-turns", Values: []string{"5", "25"}}}) {
		r[v] = len(r)
	}
	vs := []string{"zzz=1", "max-turns=25", "max-turns=5"}
	slices.SortFunc(vs, r.compare)
	if want := []string{"max-turns=5", "max-turns=25", "zzz=1"}; !slices.Equal(vs, want) {
		t.Errorf("sorted %q, want %q", vs, want)
	}
}
