package runner

import (
	"testing"

	"bench/record"
	"bench/track/tracktest"
)

// TestExplainOnlyFailures: a failed episode gets its causes (an empty list
// when no rule found evidence, so that its line says they were looked
// for); a passed, interrupted or lost one gets none; each names the files
// its track wrote.
func TestExplainOnlyFailures(t *testing.T) {
	task := tracktest.CourseTask(t, "leap_year")
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
		explain(&ep, task, events, "")
		if got := ep.Causes != nil; got != c.causes {
			t.Errorf("%s: causes %v, want recorded %v", c.name, ep.Causes, c.causes)
		}
		if len(ep.FilesWritten) != 1 || ep.FilesWritten[0] != "leap.py" {
			t.Errorf("%s: files written %v, want [leap.py]", c.name, ep.FilesWritten)
		}
	}
}
