package report

import (
	"strings"
	"testing"
	"time"

	"bench/lesson"
	"bench/report/predict"
)

// TestExplainMissesEachWay: a workflow predicted and failed by a cause of
// a question names the question; one failed by a cause of the track names
// its rule; an agent predicted where the workflow passed names the "no"
// the passes contradict; a run without recorded causes says so; a right
// prediction gets no sentence.
func TestExplainMissesEachWay(t *testing.T) {
	rep := &Report{Rows: []Row{
		{Task: "a", Track: "workflow", N: 3, Causes: []Count{{"masked_failure", 3}}},
		{Task: "b", Track: "workflow", N: 4, Passed: 1, Causes: []Count{{"lost_content", 2}, {"wrong_fix", 3}}},
		{Task: "c", Track: "workflow", N: 2, Passed: 2},
		{Task: "d", Track: "workflow", N: 2, CausesAbsent: 2},
	}}
	row := func(task, answers, observed string, right bool) predict.Row {
		a, err := lesson.Parse(answers)
		if err != nil {
			t.Fatal(err)
		}
		return predict.Row{Prediction: predict.NewPrediction(task, a, time.Time{}), Observed: observed, Right: right,
			Workflow: predict.Tally{Passed: 2, N: 2}}
	}
	got := rep.ExplainMisses(predict.Score{Rows: []predict.Row{
		row("a", "yyy", "agent", false), row("b", "yyy", "agent", false), row("c", "nyn", "workflow", false),
		row("d", "yyy", "neither", false), row("e", "yyy", "workflow", true),
	}})
	want := []string{
		"a: predicted workflow (yyy); the workflow failed by masked_failure in 3/3 failed episodes: question 1 was no",
		"b: predicted workflow (yyy); the workflow failed by wrong_fix in 3/3 failed episodes: the model's reply or edits, not the task",
		"c: predicted agent (nyn); the workflow passed in 2/2 episodes: the evidence does not support the no to question 1 and question 3",
		"d: predicted workflow (yyy); the workflow failed in 2/2 episodes, whose causes the run does not record",
	}
	if len(got) != len(want) {
		t.Fatalf("%d sentences, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("sentence %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
}
