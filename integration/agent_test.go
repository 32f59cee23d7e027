package integration

import (
	"testing"

	"bench/record"
)

// TestAgentCutReply: on tinytools every reply is cut at the cap and holds
// no tool call; the agent is told and goes on, and never ends "done" on a
// cut reply.
func TestAgentCutReply(t *testing.T) {
	needFull(t)
	t.Parallel()
	j := job{model: modelTools, tracks: "agent", seeds: "1", replyCap: 8, maxTurns: 2}
	j.run(t)
	ep := episode(t, j.out, "agent", "seed-1")
	evs := events(t, j.out, "agent", "seed-1")
	rs := responses(evs)
	if len(rs) == 0 {
		t.Fatalf("no responses: %+v", ep)
	}
	cut := 0
	for _, r := range rs {
		if r.StopReason == "length" {
			cut++
		}
	}
	if cut == 0 || ep.CutReplies != cut {
		t.Errorf("%d responses cut (stop reason \"length\"), the episode counts %d; want at least one and the same", cut, ep.CutReplies)
	}
	last := rs[len(rs)-1]
	if ep.ExitReason == record.ExitDone && last.StopReason == "length" {
		t.Errorf("the episode ends done on a cut reply: %+v", last)
	}
	if rs[0].StopReason == "length" && len(rs) < 2 {
		t.Errorf("the agent stopped after its first reply was cut (exit %s); want it told and going on", ep.ExitReason)
	}
}
