package report

import (
	"testing"

	"bench/record"
)

// TestDivergedEpisodesAreInNoRate: a replayed episode that could not
// follow its recording (exit replay_diverged) is neither a pass nor a
// failure: the row counts it apart, out of n, like a lost one.
func TestDivergedEpisodesAreInNoRate(t *testing.T) {
	diverged := episode("t", "agent", 4, 0, false, 100)
	diverged.ExitReason = record.ExitDiverged
	eps := []record.Episode{episode("t", "agent", 1, 0, true, 100), episode("t", "agent", 2, 0, true, 100), episode("t", "agent", 3, 0, false, 100), diverged}
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	if len(rep.Rows) != 1 {
		t.Fatalf("rows %+v", rep.Rows)
	}
	if r := rep.Rows[0]; r.N != 3 || r.Passed != 2 || r.Diverged != 1 {
		t.Errorf("n %d, passed %d, diverged %d; want 3, 2 and 1 apart", r.N, r.Passed, r.Diverged)
	}
}
