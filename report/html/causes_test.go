package html

import (
	"bytes"
	"strings"
	"testing"

	"bench/record"
	"bench/report"
)

// TestPageShowsCausesAndDelegation: the page has the table of causes, each
// failed episode linked by its first cause, the cause and its evidence
// first among the episode's facts, the hybrid's delegation, and the
// question tables' counts of the question's causes.
func TestPageShowsCausesAndDelegation(t *testing.T) {
	run := record.Run{ID: "c", Tracks: []string{"workflow", "hybrid"}, Tasks: []record.TaskRef{{Name: "parse_date", Archetype: "masked-second-bug", Answers: "nny"}}}
	ep := func(track string, seed int, passed bool, causes []record.Cause, wfCalls int) record.Episode {
		e := record.Episode{Task: "parse_date", Track: track, Seed: seed, Passed: passed, TestsTotal: 2, ExitReason: record.ExitDone,
			PromptTokens: 1000, Causes: causes, WorkflowCalls: wfCalls, WorkflowTokens: 300 * wfCalls}
		if passed {
			e.TestsPassed = 2
		}
		return e
	}
	masked := []record.Cause{{Name: record.CauseMaskedFailure, Evidence: "test_month fails in a way the first run did not show"}}
	data := record.Data{Run: run, Episodes: []record.Episode{
		ep("workflow", 1, false, masked, 0), ep("workflow", 2, false, masked, 0),
		ep("hybrid", 1, true, nil, 1), ep("hybrid", 2, false, []record.Cause{}, 0),
	}}
	var b bytes.Buffer
	if err := Write(&b, report.FromData([]record.Data{data}).Report(), []record.Data{data}, Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`id="causes"`, "<td>masked_failure 2</td>", "masked_failure (seed-1)</a>", `title="test_month fails in a way the first run did not show"`,
		"<li>why it failed: masked_failure — test_month fails in a way the first run did not show</li>",
		"<td>no cause found 1</td>",
		`id="delegation"`, "<td>1/2</td><td>1/1</td><td>0/1</td>", "<td class=\"num\">15%</td>",
		"workflow failed by masked_failure</th>", "<td class=\"num\">2/2</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestTimelineMarksWithin: the steps run_workflow made for the hybrid are
// marked, and the agent's own steps are not.
func TestTimelineMarksWithin(t *testing.T) {
	steps, _ := timeline([]record.Event{
		{Kind: record.EventToolCall, Turn: 1, Tool: "run_workflow", Args: "{}"},
		{Kind: record.EventTestRun, Turn: 1, Within: "run_workflow", TestsTotal: 2, TestsPassed: 1},
		{Kind: record.EventWrite, Turn: 1, Within: "run_workflow", Path: "a.py", Bytes: 3},
		{Kind: record.EventToolResult, Turn: 1, Tool: "run_workflow", Result: "ok"},
		{Kind: record.EventWrite, Turn: 2, Path: "a.py", Bytes: 4},
	}, 1000)
	var got []string
	for _, s := range steps {
		got = append(got, s.Label+":"+s.Within)
	}
	if w := "run_workflow:,test run:run_workflow,write:run_workflow,write:"; strings.Join(got, ",") != w {
		t.Errorf("steps %s, want %s", strings.Join(got, ","), w)
	}
}

// TestPageHasTheTextReportsColumns: the headline and the per-task table
// have the text report's lost and unfinished columns, and the headline its
// retries and cut replies, with "which" explained.
func TestPageHasTheTextReportsColumns(t *testing.T) {
	runs := readFixture(t)
	var b bytes.Buffer
	if err := Write(&b, report.FromData(runs).Report(), runs, Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<th>lost</th><th>unfinished</th>"); n != 2 {
		t.Errorf("%d tables with the lost and unfinished columns, want the headline and the per-task table", n)
	}
	for _, want := range []string{"<th>retries</th><th>cut replies</th>", "“which”: the tasks the track solved"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
