package report

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"bench/record"
)

// TestSequencesOrderAndMore: the listed tool sequences of a cell are its
// most frequent, ties in the order of the tools' names (made-up tools
// among them), as a sort of the episodes' own lists gives them; those past
// SequencesListed are counted, with their episodes.
func TestSequencesOrderAndMore(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	tools := []string{"read_file", "run_tests", "edit_file", "Zebra", "aaa", "\x1bx", "write_file"}
	var eps []record.Episode
	count := map[string]int{}
	lists := map[string][]string{}
	for s := range 600 {
		var calls []string
		for range rng.IntN(4) {
			calls = append(calls, tools[rng.IntN(len(tools))])
		}
		ep := episode("t", "agent", s, 0, s%2 == 0, 10)
		ep.ToolCalls = calls
		eps = append(eps, ep)
		k := fmt.Sprintf("%q", calls)
		count[k]++
		lists[k] = calls
	}
	type seq struct {
		tools []string
		n     int
	}
	var want []seq
	for k, n := range count {
		want = append(want, seq{lists[k], n})
	}
	slices.SortFunc(want, func(a, b seq) int { return cmp.Or(b.n-a.n, slices.Compare(a.tools, b.tools)) })
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	if len(want) <= SequencesListed {
		t.Fatalf("the fixture lost its point: %d distinct sequences", len(want))
	}
	for i, s := range rep.Sequences {
		if !slices.Equal(s.Tools, want[i].tools) && !(len(s.Tools) == 0 && len(want[i].tools) == 0) || s.Count != want[i].n {
			t.Fatalf("sequence %d: %q ×%d, want %q ×%d", i, s.Tools, s.Count, want[i].tools, want[i].n)
		}
	}
	moreEps := 0
	for _, s := range want[SequencesListed:] {
		moreEps += s.n
	}
	if len(rep.Sequences) != SequencesListed || len(rep.MoreSeqs) != 1 || rep.MoreSeqs[0].Sequences != len(want)-SequencesListed || rep.MoreSeqs[0].Episodes != moreEps {
		t.Errorf("%d listed, more %+v; want %d listed and %d more of %d episodes", len(rep.Sequences), rep.MoreSeqs, SequencesListed, len(want)-SequencesListed, moreEps)
	}
}
