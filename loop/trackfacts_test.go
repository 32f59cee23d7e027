package loop

import (
	"strings"
	"testing"

	"bench/trackfacts"
)

// TestAgentToolsAreTheLoopsTools: trackfacts.AgentTools names exactly the
// tools whose schemas the agent sends (Prompts holds them as JSON).
func TestAgentToolsAreTheLoopsTools(t *testing.T) {
	prompts := Prompts()
	for _, name := range trackfacts.AgentTools {
		if !strings.Contains(prompts, `"name":"`+name+`"`) {
			t.Errorf("the agent offers no tool %q", name)
		}
	}
	if n := strings.Count(prompts, `"name":"`); n != len(trackfacts.AgentTools) {
		t.Errorf("the agent offers %d tools, AgentTools names %d", n, len(trackfacts.AgentTools))
	}
}
