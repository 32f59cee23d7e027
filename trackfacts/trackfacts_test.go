package trackfacts

import (
	"slices"
	"testing"
)

func TestCompareOrdersKnownTracksFirst(t *testing.T) {
	got := []string{"zeta", Oracle, "alpha", Agent, WorkflowRetry, Workflow}
	slices.SortFunc(got, Compare)
	want := []string{Workflow, WorkflowRetry, Agent, Oracle, "alpha", "zeta"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted = %v, want %v", got, want)
	}
}

// TestPairs: the hybrid is paired with the workflow and the agent, the
// agent with each workflow, in table order.
func TestPairs(t *testing.T) {
	want := [][2]string{{Hybrid, Workflow}, {Hybrid, Agent}, {Agent, Workflow}, {Agent, WorkflowRetry}}
	if got := Pairs(); !slices.Equal(got, want) {
		t.Errorf("Pairs() = %v, want %v", got, want)
	}
}

// TestColoursAreDistinct: every track of a list gets a colour no other
// track of it has, a known track always its own, until the palette runs out.
func TestColoursAreDistinct(t *testing.T) {
	tracks := []string{"hybrid", Agent, "other", Workflow, Oracle, WorkflowRetry}
	got := Colours(tracks)
	seen := map[string]string{}
	for _, tr := range tracks {
		c := got[tr]
		if prev, ok := seen[c]; ok {
			t.Errorf("%s and %s share the colour %s", prev, tr, c)
		}
		seen[c] = tr
		if !slices.Contains(Palette, c) {
			t.Errorf("%s's colour %s is not in the palette", tr, c)
		}
	}
	if got[Agent] != "#E69F00" || got[Workflow] != "#0072B2" {
		t.Errorf("known colours changed: %v", got)
	}
	if c := Colours([]string{"hybrid"})["hybrid"]; c == "" {
		t.Error("an unknown track got no colour")
	}
}

func TestKnownTool(t *testing.T) {
	if !slices.IsSorted(AgentTools) {
		t.Fatalf("AgentTools is not sorted: %v", AgentTools)
	}
	for _, name := range AgentTools {
		if !KnownTool(name) {
			t.Errorf("KnownTool(%q) = false", name)
		}
	}
	for _, name := range []string{"", "Read_file", "read_file ", "\x1b[2J"} {
		if KnownTool(name) {
			t.Errorf("KnownTool(%q) = true", name)
		}
	}
}

// TestKnownOrder: the known tracks, in table order, are the five the
// runner's registry holds in that order (runner's TestRegistryReadsTheFacts
// checks the registry against the same list).
func TestKnownOrder(t *testing.T) {
	var names []string
	for _, f := range known {
		names = append(names, f.Name)
	}
	if want := []string{Workflow, WorkflowRetry, Hybrid, Agent, Oracle}; !slices.Equal(names, want) {
		t.Errorf("known tracks %v, want %v", names, want)
	}
}
