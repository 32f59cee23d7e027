package report

import (
	"slices"
	"strings"
	"testing"

	"bench/record"
)

// TestSettingsWarningNextToItsRows: two runs of different max turns merged
// give a footnote that every row pooling both refers to, and a row of one
// run alone does not.
func TestSettingsWarningNextToItsRows(t *testing.T) {
	a := record.Run{ID: "a", Model: "m", RunSettings: record.RunSettings{MaxTurns: 25}}
	b := record.Run{ID: "b", Model: "m", RunSettings: record.RunSettings{MaxTurns: 4}}
	rep := FromData([]record.Data{
		{Run: a, Episodes: []record.Episode{episode("t", "agent", 1, 0, true, 10), episode("u", "agent", 1, 0, true, 10)}},
		{Run: b, Episodes: []record.Episode{episode("t", "agent", 1, 0, false, 10)}},
	}).Report()
	id := 0
	for _, f := range rep.Footnotes {
		if strings.Contains(f.Text, "the merged runs differ in") {
			id = f.ID
		}
	}
	if id == 0 {
		t.Fatalf("no footnote on the settings: %v", rep.Footnotes)
	}
	for _, r := range rep.Rows {
		if got, want := slices.Contains(r.Notes, id), len(r.Runs) > 1; got != want {
			t.Errorf("row %s/%s (runs %v): refers to the settings note %v, want %v", r.Task, r.Track, r.Runs, got, want)
		}
	}
}
