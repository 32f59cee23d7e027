package runner

import (
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/scratch"
	"bench/tasks"
)

// task returns the embedded course task name.
func task(t *testing.T, name string) tasks.Task { return fixture.CourseTask(t, name) }

// workspace returns a fresh copy of the task, removed after the test.
func workspace(t *testing.T, tk tasks.Task) string {
	t.Helper()
	w, err := scratch.New(tk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Remove() })
	return w.Dir
}
