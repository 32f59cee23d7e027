package report

import (
	"fmt"
	"slices"
	"strings"

	"bench/lesson"
	"bench/record"
	"bench/report/predict"
)

// ExplainMisses says, in one sentence per missed prediction of s, which
// criterion the evidence contradicts: the causes of the failures of the
// track the prediction counted on (a cause of a lesson's question says
// that question was "no"; the others blame the track's own rule, the
// model or the run's limits, not the task), or, for an agent predicted
// where the workflow passed, which "no" its passes contradict.
func (rep *Report) ExplainMisses(s predict.Score) []string {
	var out []string
	for _, r := range s.Rows {
		if r.Right {
			continue
		}
		out = append(out, r.Task+modelSuffix(r.Model)+": "+rep.explainMiss(r))
	}
	return out
}

// modelSuffix names a row's model when the score has several.
func modelSuffix(m string) string {
	if m == "" {
		return ""
	}
	return " (" + m + ")"
}

// explainMiss is the sentence of one missed row.
func (rep *Report) explainMiss(r predict.Row) string {
	head := fmt.Sprintf("predicted %s (%s)", r.Prediction.Prediction, r.Answers)
	switch {
	case r.Prediction.Prediction == predict.Workflow:
		return head + "; " + rep.failedBy(r.Task, r.Model, predict.Workflow)
	case r.Observed == predict.Workflow:
		var nos []string
		for q, yes := range r.Answers.List() {
			if !yes {
				nos = append(nos, fmt.Sprintf("question %d", q+1))
			}
		}
		return fmt.Sprintf("%s; the workflow passed in %s episodes: the evidence does not support the no to %s, the workflow was enough",
			head, r.Workflow, strings.Join(nos, " and "))
	default:
		return head + "; the agent did not pass in most episodes either: " + rep.failedBy(r.Task, r.Model, predict.Agent)
	}
}

// failedBy says why track failed on task: its most frequent cause and
// what that cause blames.
func (rep *Report) failedBy(task, model, track string) string {
	i := slices.IndexFunc(rep.Rows, func(r Row) bool {
		return r.Task == task && r.Track == track && (model == "" || r.Model == model)
	})
	if i < 0 {
		return "the " + track + " has no episodes in the runs"
	}
	row := rep.Rows[i]
	failed := row.Failed()
	if len(row.Causes) == 0 {
		if row.CausesAbsent > 0 {
			return fmt.Sprintf("the %s failed in %d/%d episodes, whose causes the run does not record (a run older than causes: bench show derives them)", track, failed, row.N)
		}
		return fmt.Sprintf("the %s failed in %d/%d episodes, with no cause found", track, failed, row.N)
	}
	top := row.Causes[0]
	for _, c := range row.Causes[1:] {
		if c.Count > top.Count {
			top = c // ties keep the vocabulary's order: the most specific
		}
	}
	what := "a cause this bench does not know"
	if info, ok := record.LookupCause(record.CauseName(top.Name)); ok {
		what = blame(info)
	}
	return fmt.Sprintf("the %s failed by %s in %d/%d failed episodes: %s", track, top.Name, top.Count, failed, what)
}

// blame is what a cause says about the prediction.
func blame(info record.CauseInfo) string {
	switch {
	case info.Question > 0:
		return fmt.Sprintf("question %d was no (%s)", info.Question, lesson.Questions[info.Question-1])
	case info.Blames == record.BlamesTrack:
		return "its write-back rule, not the task"
	case info.Blames == record.BlamesModel:
		return "the model's reply or edits, not the task"
	}
	return "the run's limits (the reply cap, the budgets or the time limit), not the task"
}
