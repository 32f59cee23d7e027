package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/record"
	"bench/track"
	"bench/track/tracktest"
)

// TestExplainOnlyFailures: a failed episode gets its causes (an empty list
// when no rule found evidence, so that its line says they were looked
// for); a passed, interrupted or lost one gets none; each names the files
// its track wrote.
func TestExplainOnlyFailures(t *testing.T) {
	task := fixture.CourseTask(t, "leap_year")
	events := []record.Event{
		{Kind: record.EventTestRun, TestsPassed: 1, TestsTotal: 4, Output: "FAILED"},
		{Kind: record.EventWrite, Path: "./leap.py", Bytes: 10},
	}
	for _, c := range []struct {
		name   string
		ep     record.Episode
		causes bool
	}{
		{"passed", record.Episode{Passed: true, ExitReason: record.ExitDone}, false},
		{"interrupted", record.Episode{ExitReason: record.ExitInterrupted}, false},
		{"lost", record.Episode{ExitReason: record.ExitError, ErrorKind: record.ErrorFault}, false},
		{"failed", record.Episode{ExitReason: record.ExitDone, FailedTests: []string{"test_century"}}, true},
		{"timed out", record.Episode{ExitReason: record.ExitTimeout}, true},
	} {
		ep := c.ep
		explain(context.Background(), &ep, task, events, "")
		if got := ep.Causes != nil; got != c.causes {
			t.Errorf("%s: causes %v, want recorded %v", c.name, ep.Causes, c.causes)
		}
		if len(ep.FilesWritten) != 1 || ep.FilesWritten[0] != "leap.py" {
			t.Errorf("%s: files written %v, want [leap.py]", c.name, ep.FilesWritten)
		}
	}
}

// TestCausesUnknownWhenTheFirstRunFails: an episode that wrote before any
// test ran, of a task whose tests on its original files cannot be run
// whole (here they outlast the task's timeout), records no causes at all
// (unknown) rather than an empty list, which would say none was found.
func TestCausesUnknownWhenTheFirstRunFails(t *testing.T) {
	t.Parallel()
	tk := quickTask()
	tk.TestCmd = []string{"sh", "-c", "grep -q fixed a.py && exit 1; sleep 60"}
	// The run on the original files sleeps until this timeout; the graded
	// run (sh and grep) must end well within it on a loaded machine, where
	// 300 ms was not enough.
	tk.Timeout = 3 * time.Second
	write := func(ctx context.Context, env *track.Env) track.Outcome {
		if err := os.WriteFile(filepath.Join(env.Dir, "a.py"), []byte("fixed = 1\n"), 0o644); err != nil {
			return track.Outcome{Exit: record.ExitError, Err: err}
		}
		env.Rec.Record(record.Event{Kind: record.EventWrite, Path: "a.py", Bytes: 10})
		return track.Outcome{Exit: record.ExitDone}
	}
	cfg := Config{RunID: "r", Tracks: []track.Track{{Name: "w", Run: write}}}
	ep, _ := episode(context.Background(), cfg, Job{Task: tk, Track: "w", Seed: 1}, &tracktest.MemTrajectory{})
	if ep.Passed || ep.ExitReason != record.ExitDone || ep.GradingTimedOut {
		t.Fatalf("passed %v, exit %s, grading timed out %v, error %q; want a failed, graded episode", ep.Passed, ep.ExitReason, ep.GradingTimedOut, ep.Error)
	}
	if ep.Causes != nil {
		t.Errorf("causes %v, want none recorded: without a first run they are unknown", ep.Causes)
	}
	if len(ep.FilesWritten) != 1 {
		t.Errorf("files written %v, want [a.py]", ep.FilesWritten)
	}
}
