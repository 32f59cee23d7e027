package integration

import (
	"strings"
	"testing"
)

// smokeReplyCap is the smoke run's reply cap: a few tokens, so the tiny
// model's reply is cut at once.
const smokeReplyCap = 4

// TestSmoke is the real-server suite's short mode (make test): one
// workflow episode against the real server, whose own token counts and stop
// reason the episode records, and bench report reads the folder. Without
// the server it skips (make test then says so loudly after the tests), and
// with BENCH_OLLAMA_REQUIRED=1 the suite fails before any test runs.
func TestSmoke(t *testing.T) {
	need(t)
	j := job{model: modelPlain, tracks: "workflow", seeds: "1", replyCap: smokeReplyCap}
	j.run(t)
	ep := episode(t, j.out, "workflow", "seed-1")
	rs := responses(events(t, j.out, "workflow", "seed-1"))
	if len(rs) == 0 {
		t.Fatalf("no response events: %+v", ep)
	}
	var prompt, completion int
	for _, r := range rs {
		prompt += r.PromptTokens
		completion += r.CompletionTokens
		if r.StopReason != "length" || r.CompletionTokens != smokeReplyCap {
			t.Errorf("a response stopped by %q after %d tokens; want the server's \"length\" at the cap %d", r.StopReason, r.CompletionTokens, smokeReplyCap)
		}
	}
	if prompt == 0 || ep.PromptTokens != prompt || ep.CompletionTokens != completion || ep.CutReplies != len(rs) {
		t.Errorf("episode: %d prompt + %d completion tokens, %d cut replies; its responses: %d + %d, %d replies", ep.PromptTokens, ep.CompletionTokens, ep.CutReplies, prompt, completion, len(rs))
	}
	rep := bench(t, "report", j.out)
	if rep.code != 0 || !strings.Contains(rep.stdout, task) {
		t.Errorf("bench report of the smoke run:\n%s", rep)
	}
}
