package testsupport

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/tasks"
)

// Solver is a fake model for modeltest's servers that solves every built-in
// task: the workflow gets Workflow's reply for the task's source file; the
// agent lists the files, writes the solution, runs the tests, then stops.
type Solver struct {
	Workflow  map[string]string // source path → the workflow's reply text
	Solutions map[string]string // source path → solution file text
}

// NewSolver builds the Solver whose every reply is the task's solution.
func NewSolver(t testing.TB) *Solver {
	t.Helper()
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	s := &Solver{Workflow: map[string]string{}, Solutions: map[string]string{}}
	for _, task := range all {
		sol := TaskFile(t, task, "solution")
		s.Solutions[task.Source] = sol
		s.Workflow[task.Source] = FileReply(task.Source, sol)
	}
	return s
}

// TaskFile is the text of task's source file in its sub folder (repo,
// solution, partial...).
func TaskFile(t testing.TB, task tasks.Task, sub string) string {
	t.Helper()
	b, err := fs.ReadFile(task.FS, path.Join(sub, task.Source))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FileReply is a workflow reply that gives src's whole new content.
func FileReply(src, content string) string {
	return fmt.Sprintf("FILE: %s\n```python\n%s```\n", src, content)
}

// Source finds which task a request is about from its first user message.
func (s *Solver) Source(r modeltest.Request) string { return SourceOf(r, s.Solutions) }

// SourceOf is the longest key of files (source paths) that the request's
// first user message names: which task a fake model is asked about.
func SourceOf[V any](r modeltest.Request, files map[string]V) string {
	for _, m := range r.Messages {
		if m.Role != model.RoleUser {
			continue
		}
		best := ""
		for src := range files {
			if strings.Contains(m.Content, src) && len(src) > len(best) {
				best = src
			}
		}
		return best
	}
	return ""
}

// Reply answers one request of either track.
func (s *Solver) Reply(r modeltest.Request) modeltest.Reply {
	src := s.Source(r)
	if len(r.Tools) == 0 {
		return modeltest.Text(s.Workflow[src]).WithUsage(400, 200)
	}
	tools := 0
	for _, m := range r.Messages {
		if m.Role == model.RoleTool {
			tools++
		}
	}
	switch tools {
	case 0:
		return modeltest.Calls(modeltest.Call("list_files", `{"path":"."}`)).WithUsage(500, 20)
	case 1:
		args, _ := json.Marshal(map[string]string{"path": src, "content": s.Solutions[src]})
		return modeltest.Calls(modeltest.Call("write_file", string(args))).WithUsage(700, 200)
	case 2:
		return modeltest.Calls(modeltest.Call("run_tests", `{}`)).WithUsage(900, 10)
	}
	return modeltest.Text("All tests pass now.").WithUsage(1100, 10)
}
