package report

import (
	"strings"
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

// TestRunLineNamesEveryModel: a run of several models names each with its
// digest on its run line (it said "digest unknown" for the run's one).
func TestRunLineNamesEveryModel(t *testing.T) {
	run := record.Run{ID: "r", Backend: "ollama", Model: "a,b", Models: []record.ModelRef{{Name: "a", Digest: "sha256:aaaa"}, {Name: "b"}}}
	rep := FromData([]record.Data{{Run: run, Episodes: []record.Episode{episode("t", "agent", 1, 0, true, 10)}}}).Report()
	lines := runLines(rep)
	if len(lines) == 0 || !strings.Contains(lines[0], "ollama a (sha256:aaaa), b (digest unknown)") {
		t.Errorf("run lines %q; want every model with its digest", lines)
	}
}
