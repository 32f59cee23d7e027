package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/tasks"
)

// viewsCauseModel is the lesson's model for the causes: on each task's
// workflow request a reply scripted to fail in one designed way, and on
// the agent's the solution.
type viewsCauseModel struct {
	*testsupport.Solver
	cut string // the source whose workflow reply the server cuts at the reply cap
}

// reply answers the workflow's request for the cut source with a reply cut
// inside its code block, and every other request as the solver does.
func (m viewsCauseModel) reply(r modeltest.Request) modeltest.Reply {
	if src := m.Source(r); len(r.Tools) == 0 && src == m.cut {
		return modeltest.Text(m.Workflow[src]).WithDoneReason("length").WithUsage(400, 4096)
	}
	return m.Solver.Reply(r)
}

// viewsCauseRun runs bench run of the workflow and the agent on five tasks
// whose workflow replies fail each its own way: parse_date's partial fix,
// slugify's bare function (the naive fallback writes it), leap_year's
// original file, file_sizes' partial fix (it breaks test_quota.py) and a
// reply cut inside word_freq's code block.
func viewsCauseRun(t *testing.T) (string, record.Data) {
	t.Helper()
	m := viewsCauseModel{Solver: newLessonModel(t), cut: "word_freq.py"}
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range all {
		switch task.Name {
		case "file_sizes":
			m.Solutions[task.Source] = testsupport.TaskFile(t, task, "solution")
		}
		switch task.Name {
		case "leap_year":
			m.Workflow[task.Source] = testsupport.FileReply(task.Source, testsupport.TaskFile(t, task, "repo"))
		case "file_sizes":
			m.Workflow[task.Source] = testsupport.FileReply(task.Source, testsupport.TaskFile(t, task, "partial"))
		case "word_freq":
			m.Workflow[task.Source] = "FILE: word_freq.py\n```python\nimport re\n\n\ndef top_words(text, n):\n    words = re.findall(r\"[a-z']+\", text.lo"
		}
	}
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(m.reply)))
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tracks", "workflow,agent", "--seeds", "1", "--parallel", "2",
		"--tasks", "parse_date,slugify,leap_year,file_sizes,word_freq", "--out", dir)
	if err != nil {
		t.Fatalf("bench run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, data
}

// TestViewsCausesRecordedByTheRun: every failed episode of a new run
// carries its causes on its line, derived as it ended; the passing agent
// episodes carry none, and every episode names the files it wrote.
func TestViewsCausesRecordedByTheRun(t *testing.T) {
	fixture.FullOnly(t, "runner's causes tests (causes_test.go)")
	t.Parallel()
	_, data := viewsCauseRun(t)
	want := map[string]record.CauseName{
		"parse_date": record.CauseMaskedFailure,
		"slugify":    record.CauseLostContent,
		"leap_year":  record.CauseNoChange,
		"file_sizes": record.CauseBrokeTests,
		"word_freq":  record.CauseCutReply,
	}
	for _, ep := range data.Episodes {
		if ep.Track == "agent" {
			if !ep.Passed || ep.Causes != nil {
				t.Errorf("%s: passed %v, causes %v; want a pass without causes", ep.Key(), ep.Passed, ep.Causes)
			}
			if !slices.Equal(ep.FilesWritten, []string{viewsSource(t, ep.Task)}) {
				t.Errorf("%s: files written %v", ep.Key(), ep.FilesWritten)
			}
			continue
		}
		if ep.Passed || len(ep.Causes) == 0 {
			t.Fatalf("%s: passed %v, causes %v; want a failure with causes", ep.Key(), ep.Passed, ep.Causes)
		}
		if got := ep.Causes[0].Name; got != want[ep.Task] {
			t.Errorf("%s: first cause %s (%v), want %s", ep.Key(), got, ep.Causes, want[ep.Task])
		}
		for _, c := range ep.Causes {
			if c.Evidence == "" || strings.Contains(c.Evidence, "\n") {
				t.Errorf("%s: %s's evidence %q is not one line", ep.Key(), c.Name, c.Evidence)
			}
		}
		if ep.Task == "slugify" {
			c := ep.Causes[0]
			if !c.Fallback || !slices.Contains(c.Lost, "import re") || !strings.Contains(c.Evidence, "`import re`") {
				t.Errorf("slugify: %+v; want the naive fallback's write losing `import re`", c)
			}
		}
		if ep.Task == "file_sizes" && !slices.Equal(ep.Causes[0].Tests, []string{"test_large_plan", "test_small_plan"}) {
			t.Errorf("file_sizes: broke_tests names %v", ep.Causes[0].Tests)
		}
	}
}

// viewsSource is the source file of a task.
func viewsSource(t *testing.T, name string) string {
	t.Helper()
	all, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range all {
		if task.Name == name {
			return task.Source
		}
	}
	t.Fatalf("no task %s", name)
	return ""
}
