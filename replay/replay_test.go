package replay_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/record"
)

// sameEpisode compares what a replay must reproduce of an episode, field
// by field, with the recording: the verdict, how it ended, its shape and
// every token count.
func sameEpisode(t *testing.T, want, got record.Episode) {
	t.Helper()
	type view struct {
		Passed                                   bool
		TestsPassed, TestsTotal                  int
		FailedTests                              []string
		ExitReason                               record.ExitReason
		ErrorKind                                record.ErrorKind
		Posture                                  string
		Turns, ModelCalls                        int
		ToolCalls, Steps                         []string
		PromptTokens, CompletionTokens           int
		EstPromptTokens, EstCompletionTokens     int
		WorkflowCalls, WorkflowTokens, WorkflowE int
		CutReplies                               int
		TestsTampered                            bool
	}
	v := func(e record.Episode) view {
		return view{e.Passed, e.TestsPassed, e.TestsTotal, e.FailedTests, e.ExitReason, e.ErrorKind, e.Posture,
			e.Turns, e.ModelCalls, e.ToolCalls, e.Steps, e.PromptTokens, e.CompletionTokens,
			e.EstPromptTokens, e.EstCompletionTokens, e.WorkflowCalls, e.WorkflowTokens, e.WorkflowEstTokens,
			e.CutReplies, e.TestsTampered}
	}
	w, g := v(want), v(got)
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g)
	if string(wj) != string(gj) {
		t.Errorf("%s replayed differently:\nrecorded %s\nreplayed %s", want.Key(), wj, gj)
	}
}

// sameEvents compares two trajectories event by event, but for what the
// clock and the network decide: the time, a reply's duration and retries.
func sameEvents(t *testing.T, key string, want, got []record.Event) {
	t.Helper()
	strip := func(events []record.Event) []string {
		out := make([]string, len(events))
		for i, ev := range events {
			ev.Time, ev.DurationMS, ev.Retries = time.Time{}, 0, 0
			b, _ := json.Marshal(ev)
			out[i] = string(b)
		}
		return out
	}
	w, g := strip(want), strip(got)
	if len(w) != len(g) {
		t.Errorf("%s: %d events replayed, %d recorded:\nrecorded %v\nreplayed %v", key, len(g), len(w), kinds(want), kinds(got))
		return
	}
	for i := range w {
		if w[i] != g[i] {
			t.Errorf("%s: event %d differs:\nrecorded %s\nreplayed %s", key, i, w[i], g[i])
		}
	}
}

// TestReplayEveryTrackIdentically records every track on leap_year
// against the fake server, closes it, and replays the run with nothing
// but the players to answer: every episode comes out as recorded (the
// verdict, the exit reason, every token count, every event), and each
// player says so.
func TestReplayEveryTrackIdentically(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	asked := len(r.srv.Requests())

	// The recording is what the scripts make of each track, so that an
	// identical replay shows something.
	for track, want := range map[string]struct {
		passed       bool
		calls, tools int
	}{
		"workflow": {false, 1, 0}, "workflow-retry": {true, 2, 0}, "hybrid": {true, 3, 1}, "agent": {true, 5, 4}, "oracle": {true, 0, 0},
	} {
		ep := r.episode(t, track)
		if ep.Passed != want.passed || ep.ModelCalls != want.calls || len(ep.ToolCalls) != want.tools || ep.ExitReason != record.ExitDone {
			t.Fatalf("recorded %s: passed %v, %d calls, tools %v, exit %s; the script wants passed %v, %d calls, %d tools, done",
				track, ep.Passed, ep.ModelCalls, ep.ToolCalls, ep.ExitReason, want.passed, want.calls, want.tools)
		}
	}
	if h := r.episode(t, "hybrid"); h.WorkflowCalls != 1 || h.WorkflowTokens != 307+47 {
		t.Fatalf("recorded hybrid: %d workflow calls of %d tokens, want the inner call of 354", h.WorkflowCalls, h.WorkflowTokens)
	}

	src := r.open(t, r.taskRoot)
	if len(src.Changed) != 0 || len(src.Skipped) != 0 || len(src.Episodes) != len(allTracks) {
		t.Fatalf("source: changed %v, skipped %v, %d episodes", src.Changed, src.Skipped, len(src.Episodes))
	}
	got := replayAll(t, src)
	for _, track := range allTracks {
		rep, want := got[track], r.episode(t, track)
		sameEpisode(t, want, rep.ep)
		sameEvents(t, want.Key(), r.events(t, track), rep.events)
		if !rep.res.Identical || rep.res.Differences != 0 || rep.res.First != nil || rep.res.Stopped != nil {
			t.Errorf("%s: result %+v, want identical", track, rep.res)
		}
		if rep.ep.Error != "" {
			t.Errorf("%s: replay error %q", track, rep.ep.Error)
		}
	}
	if n := len(r.srv.Requests()); n != asked {
		t.Fatalf("the replay reached the model server: %d requests, %d when recorded", n, asked)
	}
}

// TestReplayEditedTestsDiverge edits the task's tests after the recording
// (a seventh test, which the solution passes and the wrong fix fails) and
// replays: the task is named as changed, and each track diverges at its
// first test run. The workflow tracks, whose replies answer prompts, go on
// and are graded 7 tests; the agent and the hybrid, whose next call
// answers a tool result that changed, stop there with replay_diverged,
// in the episode and in its end event.
func TestReplayEditedTestsDiverge(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	edited := copyTasks(t, "leap_year")
	editFile(t, filepath.Join(edited, "leap_year", "repo", "test_leap.py"), "    def test_days_in_year(self):",
		"    def test_year_zero(self):\n        self.assertTrue(is_leap(0))\n\n    def test_days_in_year(self):")
	src := r.open(t, edited)
	if len(src.Changed) != 1 || src.Changed[0].Name != "leap_year" || !strings.Contains(src.Changed[0].String(), "leap_year has changed since the recording") {
		t.Fatalf("changed tasks %v, want leap_year", src.Changed)
	}
	got := replayAll(t, src)

	firstTestRun := func(track string) int {
		return seqOf(t, r.events(t, track), 0, func(ev record.Event) bool { return ev.Kind == record.EventTestRun })
	}
	for _, track := range []string{"workflow", "workflow-retry"} {
		rep := got[track]
		if rep.res.Identical || rep.res.Stopped != nil || rep.ep.ExitReason != record.ExitDone {
			t.Fatalf("%s: %+v, exit %s; want divergences, no stop, done", track, rep.res, rep.ep.ExitReason)
		}
		f := rep.res.First
		if f.Seq != firstTestRun(track) || f.FreshSeq != f.Seq || f.Kind != record.EventTestRun || !strings.Contains(f.Fields, "tests_total") || !strings.Contains(f.Want, "tests_total=\"6\"") || !strings.Contains(f.Got, "tests_total=\"7\"") {
			t.Fatalf("%s: first divergence %s, want the first test run, 6 tests then and 7 now", track, f)
		}
		if rep.ep.TestsTotal != 7 {
			t.Fatalf("%s: graded %d tests, want the edited 7", track, rep.ep.TestsTotal)
		}
	}
	if w, rt := got["workflow"].ep, got["workflow-retry"].ep; w.Passed || !rt.Passed || rt.ModelCalls != 2 {
		t.Fatalf("workflow passed %v (want the wrong fix to fail), retry passed %v in %d calls (want the solution in 2)", w.Passed, rt.Passed, rt.ModelCalls)
	}

	for _, c := range []struct{ track, tool string }{{"agent", "run_tests"}, {"hybrid", "run_workflow"}} {
		rep, events := got[c.track], r.events(t, c.track)
		changed := seqOf(t, events, 0, func(ev record.Event) bool { return ev.Kind == record.EventToolResult && ev.Tool == c.tool })
		next := seqOf(t, events, 0, func(ev record.Event) bool { return ev.Kind == record.EventRequest && ev.Seq > changed })
		if f := rep.res.First; f.Seq != firstTestRun(c.track) {
			t.Errorf("%s: first divergence %s, want the first test run at seq %d", c.track, f, firstTestRun(c.track))
		}
		s := rep.res.Stopped
		if s == nil || s.Seq != next || s.Kind != record.EventRequest || s.Within != "" || !strings.Contains(s.Stop, "the result of "+c.tool+" changed") {
			t.Fatalf("%s: stopped at %v, want at the request (seq %d) after the changed %s result (seq %d)", c.track, s, next, c.tool, changed)
		}
		end := rep.events[len(rep.events)-1]
		if rep.ep.ExitReason != record.ExitDiverged || end.Kind != record.EventEnd || end.Exit != record.ExitDiverged ||
			!strings.Contains(rep.ep.Error, "replay diverged at recorded seq") || end.Error != rep.ep.Error || rep.ep.ErrorKind != "" {
			t.Fatalf("%s: exit %q (end event %q), error %q (end event %q), kind %q; want replay_diverged with the step",
				c.track, rep.ep.ExitReason, end.Exit, rep.ep.Error, end.Error, rep.ep.ErrorKind)
		}
		if rep.ep.ModelCalls != countKind(events[:next+1], record.EventRequest) {
			t.Fatalf("%s: %d model calls replayed, want the %d up to the stop", c.track, rep.ep.ModelCalls, countKind(events[:next+1], record.EventRequest))
		}
	}
	if o := got["oracle"]; o.res.Identical || o.res.First.Kind != record.DivergenceEpisode || !strings.Contains(o.res.First.Fields, "tests_total") || !o.ep.Passed {
		t.Fatalf("oracle: %+v, passed %v; want identical events and a verdict of 7 tests", o.res, o.ep.Passed)
	}
}

// countKind counts the events of a kind.
func countKind(events []record.Event, kind string) int {
	return len(slices.DeleteFunc(slices.Clone(events), func(ev record.Event) bool { return ev.Kind != kind }))
}
