package runner_test

import (
	"slices"
	"testing"

	"bench/cause"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
)

// TestCausesOfAnAgentThatWroteFirst: an agent that writes parse_date's
// partial fix before it ever runs the tests, and stops, has no first run
// in its trajectory; the runner runs the tests on the task's original
// files itself, so the episode records the cause the task was designed
// for (masked_failure), not an empty list that reads "no cause found".
// The control writes the same fix after a first run_tests: the same cause.
func TestCausesOfAnAgentThatWroteFirst(t *testing.T) {
	fixture.ParallelPython(t)
	tk := fixture.CourseTask(t, "parse_date")
	partial := overlayFiles(t, tk, "partial")
	for _, c := range []struct {
		name   string
		script []modeltest.Reply
	}{
		{"wrote first", []modeltest.Reply{writeFiles(partial), modeltest.Text("Fixed.")}},
		{"ran the tests first", []modeltest.Reply{runTests(), writeFiles(partial), modeltest.Text("Fixed.")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := modeltest.NewOllama(t, c.script...)
			ep, traj := runEpisode(t, srv, tk, "agent")
			if ep.Passed || ep.ExitReason != record.ExitDone || srv.Remaining() != 0 {
				t.Fatalf("passed %v, exit %s, %d replies left; want a failed episode that ran its whole script", ep.Passed, ep.ExitReason, srv.Remaining())
			}
			_, firstRun := cause.Baseline(traj.Events)
			if firstRun != (c.name != "wrote first") {
				t.Fatalf("the trajectory has a first run before the write: %v", firstRun)
			}
			names := make([]record.CauseName, len(ep.Causes))
			for i, cs := range ep.Causes {
				names[i] = cs.Name
			}
			if !slices.Contains(names, record.CauseMaskedFailure) {
				t.Errorf("causes %v, want masked_failure", ep.Causes)
			}
		})
	}
}
