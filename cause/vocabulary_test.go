package cause

import (
	"slices"
	"testing"

	"bench/record"
)

// TestVocabulary: the names are the contract's, each once, in rank
// order; each has its documentation; the questions map as the lesson's
// criteria say.
func TestVocabulary(t *testing.T) {
	want := []Name{"lost_content", "malformed_reply", "needs_other_file", "masked_failure", "broke_tests", "wrong_fix",
		"tool_errors", "cut_reply", "no_change", "timeout", "budget"}
	var got []Name
	for i, v := range record.CauseVocabulary {
		got = append(got, v.Name)
		if v.Name.Rank() != i {
			t.Errorf("%s ranks %d, at %d in record.CauseVocabulary", v.Name, v.Name.Rank(), i)
		}
		if v.Means == "" || v.Derived == "" || v.Blames == "" {
			t.Errorf("%s is not documented: %+v", v.Name, v)
		}
		if info, ok := record.LookupCause(v.Name); !ok || info.Name != v.Name {
			t.Errorf("record.LookupCause(%s) = %+v, %v", v.Name, info, ok)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("vocabulary %v, want %v", got, want)
	}
	if _, ok := record.LookupCause("flaky"); ok {
		t.Error("record.LookupCause found a name outside the vocabulary")
	}
	for q, names := range map[int][]Name{1: {MaskedFailure}, 2: {BrokeTests}, 3: {NeedsOtherFile}, 0: nil, 4: nil} {
		if got := record.CausesFor(q); !slices.Equal(got, names) {
			t.Errorf("record.CausesFor(%d) = %v, want %v", q, got, names)
		}
	}
}
