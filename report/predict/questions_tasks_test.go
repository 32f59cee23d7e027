package predict_test

import (
	"testing"

	"bench/report/predict"
	"bench/tasks"
)

// TestQuestionsAreTheTasks: the questions bench predict asks, and the
// report's design tables title, are word for word the ones task.toml's
// answers answer.
func TestQuestionsAreTheTasks(t *testing.T) {
	if predict.Questions != tasks.Questions {
		t.Errorf("predict.Questions = %q\ntasks.Questions   = %q", predict.Questions, tasks.Questions)
	}
}
