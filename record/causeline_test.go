package record

import "testing"

// TestScanCarriesCausesAndWorkflowShare: a line's causes (as a CauseSet,
// recorded or not) and the hybrid's workflow calls and tokens reach the
// views through Scan, both from a plain line and from one encoding/json
// reads.
func TestScanCarriesCausesAndWorkflowShare(t *testing.T) {
	dir := writeLines(t,
		episodeLine(t, 1, func(e *Episode) {
			e.Passed, e.Causes = false, []Cause{{Name: CauseLostContent, Evidence: "lost `import re`"}, {Name: "made_up", Evidence: "?"}}
		}),
		episodeLine(t, 2, func(e *Episode) { e.Passed, e.Causes = false, []Cause{} }),
		episodeLine(t, 3, func(e *Episode) { e.WorkflowCalls, e.WorkflowTokens = 2, 900 }),
	)
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []Line
	if _, err := f.Scan(func(l *Line) error { got = append(got, *l); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d lines, want 3", len(got))
	}
	if c := got[0].Causes; !c.Recorded() || !c.Has(CauseLostContent) || c.Has(CauseNoChange) || c&CauseOther == 0 {
		t.Errorf("line 1's causes %016b: want recorded, lost_content and another", c)
	}
	if c := got[1].Causes; !c.Recorded() || c != CausesRecorded {
		t.Errorf("line 2's causes %016b: want recorded and empty", c)
	}
	if c := got[2].Causes; c.Recorded() {
		t.Errorf("line 3 records no causes, yet the set is %016b", c)
	}
	if got[2].WorkflowCalls != 2 || got[2].WorkflowTokens != 900 {
		t.Errorf("line 3's workflow share %d calls %d tokens, want 2 and 900", got[2].WorkflowCalls, got[2].WorkflowTokens)
	}
}

// TestHasRankIsHas: a set of one cause of the vocabulary, or of one
// outside it, holds by rank exactly what it holds by name.
func TestHasRankIsHas(t *testing.T) {
	for i := range len(CauseVocabulary) + 1 {
		name := CauseName("made_up")
		if i < len(CauseVocabulary) {
			name = CauseVocabulary[i].Name
		}
		set := CauseSetOf([]Cause{{Name: name}}, true)
		for j, w := range CauseVocabulary {
			if set.HasRank(j) != set.Has(w.Name) || set.HasRank(j) != (i == j) {
				t.Errorf("the set of %s: HasRank(%d) %v, Has(%s) %v", name, j, set.HasRank(j), w.Name, set.Has(w.Name))
			}
		}
		if set.HasRank(-1) || set.HasRank(len(CauseVocabulary)) {
			t.Errorf("the set of %s holds a rank outside the vocabulary", name)
		}
	}
}
