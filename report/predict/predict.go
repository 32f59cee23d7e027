// Package predict holds bench's prediction files and scores them against runs.
//
// Before a run, a user answers three yes/no questions per task
// (lesson.Questions);
// all three yes predicts that a fixed workflow is enough, anything else that
// the task needs an agent. After the run, Check compares each prediction with
// what happened. The package reads runs only through package record.
package predict

import (
	"fmt"
	"time"

	"bench/lesson"
	"bench/trackfacts"
)

// Outcomes: a prediction is Workflow or Agent; an observation may also be Neither.
const (
	Workflow = trackfacts.Workflow // the fixed workflow is enough; the outcome is named, and counted, by the track
	Agent    = trackfacts.Agent    // the task needs an agent loop
	Neither  = "neither"           // neither track passed in most of its episodes
)

// Predicts is what the answers predict: Workflow when every answer is
// yes, else Agent.
func Predicts(a lesson.Answers) string {
	if a.AllYes() {
		return Workflow
	}
	return Agent
}

// Prediction is one task's answers, what they predict and when they were given.
type Prediction struct {
	Task string `json:"task"`
	lesson.Answers
	Prediction string    `json:"prediction"`
	Time       time.Time `json:"time"` // UTC; must be before the run's start
}

// NewPrediction records answers for task at time now.
func NewPrediction(task string, a lesson.Answers, now time.Time) Prediction {
	return Prediction{Task: task, Answers: a, Prediction: Predicts(a), Time: now.UTC()}
}

// String describes the prediction in one line, such as
// "parse_date: nny → agent (2026-11-29T21:00:00Z)".
func (p Prediction) String() string {
	return fmt.Sprintf("%s: %s → %s (%s)", p.Task, p.Answers, p.Prediction, p.Time.Format(time.RFC3339))
}
