// Package predict holds bench's prediction files and scores them against runs.
//
// Before a run, a user answers three yes/no questions per task (Questions);
// all three yes predicts that a fixed workflow is enough, anything else that
// the task needs an agent. After the run, Check compares each prediction with
// what happened. The package reads runs only through package record.
package predict

import (
	"fmt"
	"strings"
	"time"
)

// Outcomes: a prediction is Workflow or Agent; an observation may also be Neither.
const (
	Workflow = "workflow" // the fixed workflow is enough
	Agent    = "agent"    // the task needs an agent loop
	Neither  = "neither"  // neither track passed in most of its episodes
)

// Questions are the three criteria, asked in this order. A "yes" to all three
// predicts that the workflow is enough.
var Questions = [3]string{
	"Does the first test failure point at every line that must change?",
	"Will one edit, made without seeing its result, make all the tests pass?",
	"Is everything the fix needs in the error output and the one source file the workflow sends?",
}

// Answers are the answers to Questions for one task.
type Answers struct {
	PointsAtEveryLine bool `json:"points_at_every_line"` // question 1
	OneBlindEdit      bool `json:"one_blind_edit"`       // question 2
	ContextSuffices   bool `json:"context_suffices"`     // question 3
}

// ParseAnswers reads answers written as three letters y or n, one per
// question in order ("yyn"); case and spaces or commas between them are ignored.
func ParseAnswers(s string) (Answers, error) {
	letters := strings.Map(func(r rune) rune {
		if r == ' ' || r == ',' {
			return -1
		}
		return r
	}, strings.ToLower(s))
	if len(letters) != 3 || strings.Trim(letters, "yn") != "" {
		return Answers{}, fmt.Errorf("answers %q: want three letters y or n, one per question, such as yyn", s)
	}
	return Answers{letters[0] == 'y', letters[1] == 'y', letters[2] == 'y'}, nil
}

// List returns the answers in question order.
func (a Answers) List() [3]bool {
	return [3]bool{a.PointsAtEveryLine, a.OneBlindEdit, a.ContextSuffices}
}

// String writes the answers as three letters y or n, as ParseAnswers reads them.
func (a Answers) String() string {
	var b strings.Builder
	for _, yes := range a.List() {
		if yes {
			b.WriteByte('y')
		} else {
			b.WriteByte('n')
		}
	}
	return b.String()
}

// Predict is Workflow when every answer is yes, else Agent.
func (a Answers) Predict() string {
	if a.PointsAtEveryLine && a.OneBlindEdit && a.ContextSuffices {
		return Workflow
	}
	return Agent
}

// Prediction is one task's answers, what they predict and when they were given.
type Prediction struct {
	Task string `json:"task"`
	Answers
	Prediction string    `json:"prediction"`
	Time       time.Time `json:"time"` // UTC; must be before the run's start
}

// NewPrediction records answers for task at time now.
func NewPrediction(task string, a Answers, now time.Time) Prediction {
	return Prediction{Task: task, Answers: a, Prediction: a.Predict(), Time: now.UTC()}
}

// String describes the prediction in one line, such as
// "parse_date: nny → agent (2026-11-29T21:00:00Z)".
func (p Prediction) String() string {
	return fmt.Sprintf("%s: %s → %s (%s)", p.Task, p.Answers, p.Prediction, p.Time.Format(time.RFC3339))
}
