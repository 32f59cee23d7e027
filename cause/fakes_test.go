package cause

import (
	"encoding/json"
	"fmt"
	"strings"

	"bench/model"
	"bench/record"
	"bench/tasks"
)

// Fakes for the table tests of the rules: test output written in the
// shape python3 -m unittest -v and go test print it (see the tests in
// tracks_test.go for the real thing), and trajectory events as the tracks
// record them.

// fakeCase is one test of a fake unittest run: its method, its outcome
// ("ok", "FAIL", "ERROR") and, for a failure, its traceback.
type fakeCase struct {
	name, outcome string
	traceback     string
}

// fakeUnittest is the -v output of a unittest run of module test_m,
// class T.
func fakeUnittest(cases ...fakeCase) string {
	var b strings.Builder
	failed := 0
	for _, c := range cases {
		fmt.Fprintf(&b, "%s (test_m.T.%s) ... %s\n", c.name, c.name, c.outcome)
	}
	for _, c := range cases {
		if c.outcome == "ok" {
			continue
		}
		failed++
		fmt.Fprintf(&b, "\n%s\n%s: %s (test_m.T.%s)\n%s\n%s\n", strings.Repeat("=", 70), c.outcome, c.name, c.name, strings.Repeat("-", 70), strings.TrimRight(c.traceback, "\n"))
	}
	fmt.Fprintf(&b, "\n%s\nRan %d tests in Xs\n\n", strings.Repeat("-", 70), len(cases))
	if failed == 0 {
		b.WriteString("OK\n")
	} else {
		fmt.Fprintf(&b, "FAILED (failures=%d)\n", failed)
	}
	return b.String()
}

// fakeTraceback is a traceback from the test's assertion, through the
// frames given as "file:line:function:code", to the exception line.
func fakeTraceback(test, exception string, frames ...string) string {
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	fmt.Fprintf(&b, "  File \"./test_m.py\", line 9, in %s\n    self.assertEqual(f(1), 2)\n", test)
	for _, f := range frames {
		p := strings.SplitN(f, ":", 4)
		fmt.Fprintf(&b, "  File \"./%s\", line %s, in %s\n    %s\n", p[0], p[1], p[2], p[3])
	}
	b.WriteString(exception + "\n")
	return b.String()
}

// fakeLoadError is the output of a unittest run whose test module does
// not import.
func fakeLoadError(exception string) string {
	return "test_m (unittest.loader._FailedTest.test_m) ... ERROR\n\n" + strings.Repeat("=", 70) +
		"\nERROR: test_m (unittest.loader._FailedTest.test_m)\n" + strings.Repeat("-", 70) +
		"\nImportError: Failed to import test module: test_m\nTraceback (most recent call last):\n" +
		"  File \"/usr/lib/python3.11/unittest/loader.py\", line 162, in loadTestsFromName\n    module = __import__(module_name)\n" +
		"  File \"./test_m.py\", line 3, in <module>\n    from m import f, g\n" + exception + "\n\n\n" +
		strings.Repeat("-", 70) + "\nRan 1 test in Xs\n\nFAILED (errors=1)\n"
}

// fakeTask is a Python task with source m.py, helper.py and test_m.py.
func fakeTask(source string) Task {
	return Task{
		Name: "fake", Source: "m.py", TestFiles: []string{"test_m.py"}, Framework: tasks.FrameworkUnittest,
		Tests: []string{"test_a", "test_b", "test_c"},
		Files: map[string]string{
			"m.py":      source,
			"helper.py": "def g(x):\n    return x\n",
			"test_m.py": "import unittest\n\nfrom m import f, g\n",
		},
	}
}

// fakeSource is m.py as the fake task has it.
const fakeSource = "import re\nfrom helper import g\n\nLIMIT = 3\n\n\ndef f(x):\n    return g(x) + 1\n\n\ndef h(x):\n    return re.sub('a', 'b', x)\n"

// Events as the tracks record them.

func evTestRun(out string) record.Event { return record.Event{Kind: record.EventTestRun, Output: out} }

func evRequest(tools ...string) record.Event {
	return record.Event{Kind: record.EventRequest, Tools: tools}
}

func evReply(turn int, text string) record.Event {
	return record.Event{Kind: record.EventResponse, Turn: turn, Reply: &record.Message{Role: "assistant", Content: text}, StopReason: "stop"}
}

func evCutReply(turn int, text string) record.Event {
	ev := evReply(turn, text)
	ev.StopReason = model.StopLength
	return ev
}

func evWrite(turn int, path string, content string) record.Event {
	return record.Event{Kind: record.EventWrite, Turn: turn, Path: path, Bytes: len(content)}
}

func evFallback(turn int, path string, content string) record.Event {
	return record.Event{Kind: record.EventFallbackWrite, Turn: turn, Path: path, Bytes: len(content), Reason: "no FILE: line"}
}

func evReject(turn int, reason string) record.Event {
	return record.Event{Kind: record.EventReject, Turn: turn, Reason: reason}
}

func evCall(turn int, tool string, args map[string]string) record.Event {
	b, _ := json.Marshal(args)
	return record.Event{Kind: record.EventToolCall, Turn: turn, Tool: tool, Args: string(b)}
}

func evResult(turn int, tool, result string, isErr bool) record.Event {
	return record.Event{Kind: record.EventToolResult, Turn: turn, Tool: tool, Result: result, IsError: isErr}
}

// workflowEvents is a workflow episode: the first run, one reply written
// (as FILE: m.py and one block holding content) and the run after it.
func workflowEvents(first, content, after string) []record.Event {
	reply := "FILE: m.py\n```python\n" + content + "```\n"
	return []record.Event{evTestRun(first), evRequest(), evReply(1, reply), evWrite(1, "m.py", content), evTestRun(after)}
}

// failedEpisode is a graded episode that failed the named tests.
func failedEpisode(failed ...string) record.Episode {
	return record.Episode{Task: "fake", Track: "workflow", ExitReason: record.ExitDone, FailedTests: failed, TestsTotal: 3, TestsPassed: 3 - len(failed)}
}
