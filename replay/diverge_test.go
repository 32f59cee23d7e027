package replay_test

import (
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/record"
)

// TestReplayStopsWhenAToolResultChanges edits a docstring of leap.py after
// the recording, which changes no test output: the agent's read_file
// result changes, and its conversation stops at the next request, since
// the recorded next call was decided on the old text. The workflow and the
// hybrid's inner call only get the file in a prompt: the change is noted
// there, the recorded reply is served, and the episode ends as recorded.
func TestReplayStopsWhenAToolResultChanges(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	edited := copyTasks(t, "leap_year")
	editFile(t, filepath.Join(edited, "leap_year", "repo", "leap.py"),
		`"""Return True when year has a 29th of February."""`, `"""Say whether year has a 29th of February."""`)
	got := replayAll(t, only(r.open(t, edited), "agent", "workflow", "hybrid"))

	events := r.events(t, "agent")
	read := seqOf(t, events, 0, func(ev record.Event) bool { return ev.Kind == record.EventToolResult && ev.Tool == "read_file" })
	next := seqOf(t, events, 0, func(ev record.Event) bool { return ev.Kind == record.EventRequest && ev.Seq > read })
	a := got["agent"]
	if f := a.res.First; f == nil || f.Seq != read || f.FreshSeq != read || f.Kind != record.EventToolResult || f.Tool != "read_file" || f.Fields != "result" ||
		!strings.Contains(f.Want, "Return True when") || !strings.Contains(f.Got, "Say whether") {
		t.Fatalf("agent: first divergence %v, want the read_file result at seq %d, old and new docstring", f, read)
	}
	if s := a.res.Stopped; s == nil || s.Seq != next || s.FreshSeq != next || !strings.Contains(s.Stop, "the result of read_file changed") {
		t.Fatalf("agent: stopped at %v, want the request at seq %d after the read_file result", s, next)
	}
	if a.ep.ExitReason != record.ExitDiverged || a.ep.Passed || a.res.Differences != 3 {
		t.Fatalf("agent: exit %s, passed %v, %d differences; want replay_diverged before the fix was written, 3 differences (the result, the request, the verdict)",
			a.ep.ExitReason, a.ep.Passed, a.res.Differences)
	}
	if n := countKind(a.events, record.EventResponse); n != 2 {
		t.Fatalf("agent: %d replies served, want the 2 before the read_file result", n)
	}

	w := got["workflow"]
	prompt := seqOf(t, r.events(t, "workflow"), 0, func(ev record.Event) bool { return ev.Kind == record.EventRequest })
	if w.res.Stopped != nil || w.res.Differences != 1 || w.res.First.Seq != prompt || w.res.First.Fields != "messages[1].content" {
		t.Fatalf("workflow: %+v, want one difference, in the prompt (seq %d), and no stop", w.res, prompt)
	}
	sameEpisode(t, r.episode(t, "workflow"), w.ep)

	h := got["hybrid"]
	inner := seqOf(t, r.events(t, "hybrid"), 0, func(ev record.Event) bool { return ev.Kind == record.EventRequest && ev.Within == "run_workflow" })
	if h.res.Stopped != nil || h.res.Differences != 1 || h.res.First.Seq != inner || h.res.First.Within != "run_workflow" || h.res.First.Kind != record.EventRequest {
		t.Fatalf("hybrid: %+v, want one difference, in the inner call's prompt (seq %d), and no stop", h.res, inner)
	}
	sameEpisode(t, r.episode(t, "hybrid"), h.ep)
}

// TestReplayStopsOnFewerCalls removes the two tests the wrong fix fails:
// workflow-retry's first attempt now passes, so the track ends after one
// call of the two recorded, and the replay stops at the recorded second
// request with replay_diverged, though the track ended done and every test
// passes: its line says diverged, not passed (a diverged episode is in no
// rate). The workflow track, which makes one call either way, is graded a
// pass and goes on.
func TestReplayStopsOnFewerCalls(t *testing.T) {
	fixture.ParallelPython(t)
	r := sharedRun(t)
	edited := copyTasks(t, "leap_year")
	tests := filepath.Join(edited, "leap_year", "repo", "test_leap.py")
	editFile(t, tests, "    def test_century(self):\n        self.assertFalse(is_leap(1900))\n\n", "")
	editFile(t, tests, "    def test_far_future(self):\n        self.assertTrue(is_leap(2400))\n        self.assertFalse(is_leap(2100))\n\n", "")
	got := replayAll(t, only(r.open(t, edited), "workflow-retry", "workflow"))

	rt := got["workflow-retry"]
	second := seqOf(t, r.events(t, "workflow-retry"), 1, func(ev record.Event) bool { return ev.Kind == record.EventRequest })
	end := rt.events[len(rt.events)-1]
	if s := rt.res.Stopped; s == nil || s.Seq != second || s.FreshSeq != end.Seq || !strings.Contains(s.Stop, "ended before asking for every recorded call") {
		t.Fatalf("retry: stopped at %v, want the recorded second request (seq %d), at the replay's end (seq %d)", s, second, end.Seq)
	}
	if rt.ep.ExitReason != record.ExitDiverged || end.Exit != record.ExitDiverged || rt.ep.ModelCalls != 1 ||
		rt.ep.TestsTotal == 0 || rt.ep.TestsPassed != rt.ep.TestsTotal || rt.ep.Passed || rt.ep.Verdict().Status != record.StatusDiverged {
		t.Fatalf("retry: exit %s (end event %s), %d calls, %d of %d tests, passed %v, status %v; want replay_diverged after 1 call, every test passing, "+
			"and the line not a pass (a diverged episode is in no rate)", rt.ep.ExitReason, end.Exit, rt.ep.ModelCalls, rt.ep.TestsPassed, rt.ep.TestsTotal, rt.ep.Passed, rt.ep.Verdict().Status)
	}
	if w := got["workflow"]; w.res.Stopped != nil || w.ep.ExitReason != record.ExitDone || !w.ep.Passed {
		t.Fatalf("workflow: %+v, exit %s, passed %v; want a pass and no stop", w.res, w.ep.ExitReason, w.ep.Passed)
	}
}

// TestReplayStopsOnMoreCalls records workflow-retry answering right the
// first time, then adds a test the solution fails: the retry now asks a
// second call, which the recording never made, and the replay stops there.
func TestReplayStopsOnMoreCalls(t *testing.T) {
	fixture.ParallelPython(t)
	r := recordRun(t, t.TempDir(), leapModel{rightFirst: true}, "workflow-retry")
	if ep := r.episode(t, "workflow-retry"); !ep.Passed || ep.ModelCalls != 1 {
		t.Fatalf("recorded: passed %v in %d calls, want a pass in 1", ep.Passed, ep.ModelCalls)
	}
	edited := copyTasks(t, "leap_year")
	editFile(t, filepath.Join(edited, "leap_year", "repo", "test_leap.py"), "    def test_days_in_year(self):",
		"    def test_not_this_year(self):\n        self.assertTrue(is_leap(2023))\n\n    def test_days_in_year(self):")
	rt := replayAll(t, r.open(t, edited))["workflow-retry"]
	asked := seqOf(t, rt.events, 1, func(ev record.Event) bool { return ev.Kind == record.EventRequest })
	if s := rt.res.Stopped; s == nil || s.Seq != -1 || s.FreshSeq != asked || !strings.Contains(s.Stop, "more model calls than were recorded") {
		t.Fatalf("stopped at %v, want at the replay's second request (seq %d), which the recording lacks", s, asked)
	}
	end := rt.events[len(rt.events)-1]
	if rt.ep.ExitReason != record.ExitDiverged || end.Exit != record.ExitDiverged || rt.ep.ModelCalls != 2 || rt.ep.Passed {
		t.Fatalf("exit %s (end %s), %d calls, passed %v; want replay_diverged at the second call, not passed", rt.ep.ExitReason, end.Exit, rt.ep.ModelCalls, rt.ep.Passed)
	}
}
