package trackfacts_test

import (
	"slices"
	"strings"
	"testing"

	"bench/hybrid"
	"bench/loop"
	"bench/runner"
	"bench/trackfacts"
)

// TestRegistryReadsTheFacts: the runner's registry holds every known track,
// in trackfacts' order, each compared with the tracks trackfacts names; a
// track the registry adds has its facts here too, so that the report (which
// reads only trackfacts) orders and pairs it as the runner does.
func TestRegistryReadsTheFacts(t *testing.T) {
	var names []string
	for _, tr := range runner.Tracks() {
		f, ok := trackfacts.Lookup(tr.Name)
		if !ok {
			t.Errorf("the registry's track %q has no facts in trackfacts", tr.Name)
			continue
		}
		if !slices.Equal(tr.ComparedTo, f.ComparedTo) {
			t.Errorf("track %s: the registry compares it with %v, trackfacts with %v", tr.Name, tr.ComparedTo, f.ComparedTo)
		}
		names = append(names, tr.Name)
	}
	if !slices.Equal(names, trackfacts.KnownNames()) {
		t.Errorf("registry order %v, trackfacts order %v", names, trackfacts.KnownNames())
	}
}

// TestAgentToolsAreTheLoopsTools: AgentTools names exactly the tools whose
// schemas the agent sends (loop.Prompts holds them as JSON).
func TestAgentToolsAreTheLoopsTools(t *testing.T) {
	prompts := loop.Prompts()
	for _, name := range trackfacts.AgentTools {
		if !strings.Contains(prompts, `"name":"`+name+`"`) {
			t.Errorf("the agent offers no tool %q", name)
		}
	}
	if n := strings.Count(prompts, `"name":"`); n != len(trackfacts.AgentTools) {
		t.Errorf("the agent offers %d tools, AgentTools names %d", n, len(trackfacts.AgentTools))
	}
}

// TestHybridToolsAreTheHybrids: HybridTools names the tool the hybrid
// track adds to the agent's.
func TestHybridToolsAreTheHybrids(t *testing.T) {
	if !slices.Equal(trackfacts.HybridTools, []string{hybrid.ToolName}) {
		t.Errorf("HybridTools = %v, the hybrid track offers %q", trackfacts.HybridTools, hybrid.ToolName)
	}
	if !trackfacts.KnownTool(hybrid.ToolName) {
		t.Errorf("%q is not a known tool", hybrid.ToolName)
	}
}
