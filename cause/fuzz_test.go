package cause

import (
	"strings"
	"testing"

	"bench/record"
	"bench/tasks"
)

// FuzzDerive feeds Derive test output, replies and sizes that the model's
// code and the model control: whatever they hold, Derive must not panic,
// and every evidence stays one line.
func FuzzDerive(f *testing.F) {
	f.Add(first, fakeUnittest(okA, bAssert, okC), "FILE: m.py\n```\nx\n```\n", 2, false, false)
	f.Add(fakeLoadError("ImportError: x"), nameErrors("g"), "```\ndef f(x):\n```", 10, true, true)
	f.Add("panic: boom\n\t./m.go:3\n", "=== RUN   TestA\n    a_test.go:1: no\n--- FAIL: TestA (Xs)\n", "FILE: \n~~~", 0, false, true)
	f.Add("File \"./m.py\", line x\n", "======\nERROR: t (a.b)\n-----\n  File \"./m.py\", line 1\n", "<think>", -1, true, false)
	f.Fuzz(func(t *testing.T, before, after, reply string, size int, fallback, goTask bool) {
		task := fakeTask(fakeSource)
		if goTask {
			task.Framework = tasks.FrameworkGo
		}
		kind := record.EventWrite
		if fallback {
			kind = record.EventFallbackWrite
		}
		events := []record.Event{evTestRun(before), evRequest(), evCutReply(1, reply),
			{Kind: kind, Turn: 1, Path: "m.py", Bytes: size}, evTestRun(after)}
		for _, in := range []Input{
			{Task: task, Events: events, Episode: failedEpisode("test_a", "test_b", "TestA")},
			{Task: task, Events: events[1:], Episode: failedEpisode(), Baseline: before, Grading: &Grading{Output: after}},
		} {
			for _, c := range Derive(in) {
				if c.Evidence == "" || strings.ContainsAny(c.Evidence, "\n\r") {
					t.Fatalf("%s: evidence %q is not one line", c.Name, c.Evidence)
				}
			}
		}
	})
}
