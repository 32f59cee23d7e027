// Package tasks holds the fixture repositories of the experiment, their
// manifests (task.toml) and the loader that reads them.
package tasks

import (
	"io/fs"
	"time"

	"bench/lesson"
)

// The folders of a task: the repository the model is given, the
// reference fix laid over it, and the optional partial fix.
const (
	Repo     = "repo"
	Solution = "solution"
	Partial  = "partial"
)

// Task is one fixture: a small repository with a bug, a reference fix and
// the instruction both tracks give the model.
type Task struct {
	Name          string         // folder name, e.g. "parse_date"
	Title         string         // one line for tables
	Instruction   string         // what both tracks ask of the model
	TestCmd       []string       // argv, run in the workspace root
	Source        string         // the file the workflow sends, relative to repo/
	TestFiles     []string       // protected files, relative to repo/; graded from pristine copies
	Timeout       time.Duration  // for one run of TestCmd
	PartialExpect string         // text the partial/ overlay's failure must contain; "" when there is no partial/
	Tests         []string       // test names defined in TestFiles, in file order: "test_century", or "TestClamp" for Go
	Archetype     string         // kebab-case name of the task's design, e.g. "masked-second-bug"
	Answers       lesson.Answers // the designed answers to lesson.Questions
	Framework     string         // FrameworkUnittest or FrameworkGo
	Origin        string         // the absolute folder FromDir loaded the task from; "" for tasks compiled into bench
	FS            fs.FS          // the task folder: task.toml, repo/, solution/, optional partial/ (Go files under their real names)
}
