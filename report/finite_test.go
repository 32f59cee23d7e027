package report

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"bench/record"
)

// TestNoInfinityWhenATokenCountIsZero: an episode that ended before any
// reply has 0 tokens; a bootstrap resample of the denominator can then have
// median 0 and the ratio +Inf. No format may print Inf or NaN, and JSON
// (which cannot hold them) must still be written.
func TestNoInfinityWhenATokenCountIsZero(t *testing.T) {
	var eps []record.Episode
	for seed, tok := range []int{0, 10, 10} {
		eps = append(eps, episode("t", "workflow", seed+1, 0, false, tok))
		eps = append(eps, episode("t", "agent", seed+1, 0, true, 100))
	}
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	if len(rep.Ratios) != 1 {
		t.Fatalf("ratios = %+v, want one", rep.Ratios)
	}
	for name, write := range map[string]func(io.Writer, *Report) error{
		"text": WriteText, "markdown": WriteMarkdown, "csv": WriteCSV, "json": WriteJSON,
	} {
		var buf bytes.Buffer
		if err := write(&buf, rep); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		out := strings.ToLower(buf.String())
		if strings.Contains(out, "inf") || strings.Contains(out, "nan") {
			t.Errorf("%s prints a non-finite number:\n%s", name, buf.String())
		}
	}
}
