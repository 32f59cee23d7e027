package plan

import (
	"testing"

	"bench/record"
	"bench/runner"
)

// TestModelLine: every model is named with its digest, or why it has
// none, and the hybrid's --workflow-model with its own; a run that asks
// no model has no model line.
func TestModelLine(t *testing.T) {
	hybrid := &runner.Session{Run: record.Run{Backend: "ollama", Tracks: []string{"hybrid"}, Models: []record.ModelRef{{Name: "agent:8b", Digest: "sha256:0123456789abcdef"}},
		WorkflowModelDigest: "sha256:e1e1e1e1e1e1e1e1", RunSettings: record.RunSettings{WorkflowModel: "editor:1b"}}}
	two := &runner.Session{Run: record.Run{Backend: "ollama", Tracks: []string{"agent"}, Models: []record.ModelRef{{Name: "a"}, {Name: "b", Digest: "d1"}}}}
	oracle := &runner.Session{Run: record.Run{Tracks: []string{"oracle"}}}
	for _, tc := range []struct {
		s     *runner.Session
		asked bool
		want  string
	}{
		{hybrid, true, "model: ollama agent:8b (digest 0123456789ab); the hybrid's run_workflow asks editor:1b (digest e1e1e1e1e1e1)"},
		{hybrid, false, "model: ollama agent:8b (digest not asked: dry run); the hybrid's run_workflow asks editor:1b (digest not asked: dry run)"},
		{two, true, "models: ollama a (digest unknown: the server named none), b (digest d1)"},
		{oracle, true, ""},
	} {
		if got := ModelLine(tc.s, tc.asked); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
