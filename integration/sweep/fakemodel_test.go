package sweep

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"testing"

	"bench/internal/testsupport"
	"bench/model"
	"bench/model/modeltest"
	"bench/tasks"
)

// fakeModel scripts a model on the fake Ollama server whose replies depend
// only on the task, the seed and the turn, so that an episode comes out the
// same wherever and whenever it runs, tokens included. Both tracks do real
// work that the real tests grade:
//
//   - the workflow answers with the task's source file: the reference fix,
//     the partial/ fix where the task has one (some tests still fail), and
//     the file unchanged on seed 2 (every bug stays);
//   - the agent lists the files, writes the reference fix (on seed 2 the
//     partial/ fix where the task has one, else the file unchanged), runs
//     the tests and stops.
type fakeModel struct {
	files map[string]taskFiles // by source path
	// hold, when set, is asked before every agent reply after the first:
	// true makes the server hold the reply until the client gives up.
	hold func(task string, seed int) bool
}

// taskFiles are the versions of a task's source file the fake writes.
type taskFiles struct {
	task, original, solution, partial string
}

// newFakeModel reads the built-in tasks' files.
func newFakeModel(t *testing.T) *fakeModel {
	t.Helper()
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeModel{files: map[string]taskFiles{}}
	for _, task := range all {
		read := func(sub string) string {
			b, err := fs.ReadFile(task.FS, path.Join(sub, task.Source))
			if err != nil && sub != "partial" {
				t.Fatal(err)
			}
			return string(b)
		}
		f.files[task.Source] = taskFiles{task: task.Name, original: read("repo"), solution: read("solution"), partial: read("partial")}
	}
	return f
}

// serve starts a fake Ollama server answering with f.
func (f *fakeModel) serve(t *testing.T) *modeltest.Server {
	return modeltest.NewOllama(t, modeltest.Always(modeltest.Func(f.reply)))
}

// source finds the task a request is about from its first user message.
func (f *fakeModel) source(r modeltest.Request) string { return testsupport.SourceOf(r, f.files) }

// seed is the seed the request was sent with.
func seed(r modeltest.Request) int {
	s, _ := r.Options["seed"].(float64)
	return int(s)
}

// reply answers one request of either track.
func (f *fakeModel) reply(r modeltest.Request) modeltest.Reply {
	src := f.source(r)
	files, ok := f.files[src]
	if !ok {
		return modeltest.Text("I cannot tell which task this is.").WithUsage(100, 10)
	}
	s := seed(r)
	if len(r.Tools) == 0 {
		content := files.solution
		switch {
		case s == 2:
			content = files.original
		case files.partial != "":
			content = files.partial
		}
		return modeltest.Text(fmt.Sprintf("FILE: %s\n```python\n%s```\n", src, content)).WithUsage(400, 200)
	}
	tools := 0
	for _, m := range r.Messages {
		if m.Role == model.RoleTool {
			tools++
		}
	}
	if tools > 0 && f.hold != nil && f.hold(files.task, s) {
		return modeltest.Hang()
	}
	switch tools {
	case 0:
		return modeltest.Calls(modeltest.Call("list_files", `{"path":"."}`)).WithUsage(500, 20)
	case 1:
		content := files.solution
		if s == 2 {
			content = cmp.Or(files.partial, files.original)
		}
		args, _ := json.Marshal(map[string]string{"path": src, "content": content})
		return modeltest.Calls(modeltest.Call("write_file", string(args))).WithUsage(700, 200)
	case 2:
		return modeltest.Calls(modeltest.Call("run_tests", `{}`)).WithUsage(900, 10)
	}
	return modeltest.Text("Done: the tests were run.").WithUsage(1100, 10)
}
