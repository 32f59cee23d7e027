package preflight

import (
	"strings"
	"testing"

	"bench/model"
	"bench/record"
	"bench/runner"
)

// refusalSession is a session of tracks asking model m on ollama.
func refusalSession(resumed bool, tracks ...string) *runner.Session {
	return &runner.Session{Dir: "results/r", Resumed: resumed, Model: model.Config{Backend: model.BackendOllama, Model: "m:1b"}, Run: record.Run{Tracks: tracks}}
}

// TestRefusalOneParagraphPerCause: each failed check of a server gives its
// cause's paragraph once (two hosts unreachable: two paragraphs, a repeat:
// none more), failed local checks one paragraph, passed checks none, and
// the last line says what is unchanged.
func TestRefusalOneParagraphPerCause(t *testing.T) {
	checks := []Check{
		{Name: Server, Status: Pass, Host: "http://ok:1"},
		{Name: Server, Status: Fail, Kind: model.ErrUnreachable, Host: "http://a:1"},
		{Name: Server, Status: Fail, Kind: model.ErrUnreachable, Host: "http://a:1"},
		{Name: Tools, Status: Fail, Kind: model.ErrNoToolSupport, Host: "http://b:1", Model: "other:2b"},
		{Name: Python, Status: Fail},
		{Name: Tasks, Status: Fail},
	}
	got := strings.Split(Refusal(refusalSession(false, "workflow", "agent", "hybrid"), checks), "\n")
	want := []string{
		"bench run could not reach the model server at http://a:1: ",
		"Model other:2b on http://b:1 cannot call tools, which the agent and hybrid track needs: run without it with --tracks workflow, or choose a model that supports tools with --model.",
		"The checks of this machine above failed (each says how to fix it).",
		"Nothing was created or changed.",
	}
	if len(got) != len(want) {
		t.Fatalf("%d paragraphs, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("paragraph %d:\n got %q\nwant %q...", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[0], "ollama pull m:1b") || !strings.HasSuffix(got[0], "A run with --tracks oracle needs no server.") {
		t.Errorf("the unreachable server's paragraph lacks the pull command or the oracle: %q", got[0])
	}
}

// TestRefusalOfAResumedRun: a resumed run keeps its folder and tracks, so
// its refusal names the folder and offers no other tracks.
func TestRefusalOfAResumedRun(t *testing.T) {
	got := Refusal(refusalSession(true, "agent"), []Check{{Name: Server, Status: Fail, Kind: model.ErrUnreachable, Host: "http://a:1"}})
	if strings.Contains(got, "--tracks oracle") || !strings.HasSuffix(got, "results/r is unchanged; resume it once this is fixed, or, if the server has moved, add --host URL.") {
		t.Errorf("refusal of a resumed run: %q", got)
	}
}

// TestTracksByToolsFallsBackToTheWorkflow: with every track using tools,
// the run offered instead is the workflow.
func TestTracksByToolsFallsBackToTheWorkflow(t *testing.T) {
	tools, rest := tracksByTools([]string{"agent"})
	if strings.Join(tools, ",") != "agent" || strings.Join(rest, ",") != "workflow" {
		t.Errorf("tools %v, rest %v", tools, rest)
	}
}
