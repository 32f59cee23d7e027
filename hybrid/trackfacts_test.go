package hybrid

import (
	"slices"
	"testing"

	"bench/trackfacts"
)

// TestHybridToolsAreTheHybrids: trackfacts.HybridTools names the tool the
// hybrid track adds to the agent's.
func TestHybridToolsAreTheHybrids(t *testing.T) {
	if !slices.Equal(trackfacts.HybridTools, []string{ToolName}) {
		t.Errorf("HybridTools = %v, the hybrid track offers %q", trackfacts.HybridTools, ToolName)
	}
	if !trackfacts.KnownTool(ToolName) {
		t.Errorf("%q is not a known tool", ToolName)
	}
}
