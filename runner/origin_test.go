package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/record"
	"bench/tasks"

	"github.com/otiai10/copy"
)

// dirTask copies the built-in task from into a fresh tasks folder as the
// task name, loads that folder as --tasks-dir does and returns the folder
// and the task.
func dirTask(t *testing.T, from, name string) (string, tasks.Task) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "my-tasks")
	dst := filepath.Join(dir, name)
	if err := copy.Copy(from, dst, copy.Options{FS: tasks.Embedded(), PermissionControl: copy.AddPermission(0o200)}); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dst, tasks.ManifestName)
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), `name = "`+from+`"`, `name = "`+name+`"`, 1))
	if err := os.WriteFile(manifest, data, 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := tasks.FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, loaded[0]
}

func TestTaskRefsRecordDesignAndOrigin(t *testing.T) {
	dir, mine := dirTask(t, "parse_date", "my_dates")
	abs, _ := filepath.Abs(dir)
	refs, err := TaskRefs([]tasks.Task{task(t, "leap_year"), mine})
	if err != nil {
		t.Fatal(err)
	}
	want := []record.TaskRef{
		{Name: "leap_year", Archetype: "control", Answers: "yyy", Origin: record.OriginBuiltin},
		{Name: "my_dates", Archetype: "masked-second-bug", Answers: "nny", Origin: abs},
	}
	for i, w := range want {
		got := refs[i]
		got.Checksum = ""
		if got != w {
			t.Errorf("ref %d = %+v, want %+v", i, got, w)
		}
	}
}

// TestResumeFindsTasksFromTheirOrigin: a run of a --tasks-dir task resumes
// without the folder being named again, and names the folder when it is gone.
func TestResumeFindsTasksFromTheirOrigin(t *testing.T) {
	fixture.ParallelPython(t)
	tasksDir, mine := dirTask(t, "leap_year", "my_leap")
	out := filepath.Join(t.TempDir(), "run")
	spec := oracleSpec(t, out)
	spec.Tasks, spec.Seeds = []tasks.Task{task(t, "word_freq"), mine}, []int{1}
	s, err := NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Execute(context.Background(), nil, ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	builtin, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Resume(out, builtin, ResumeOptions{})
	if err != nil {
		t.Fatalf("resuming without the tasks folder: %v", err)
	}
	if len(r.Tasks) != 2 || r.Tasks[1].Name != "my_leap" || r.Tasks[1].Origin != mine.Origin {
		t.Fatalf("resumed tasks %+v", r.Tasks)
	}
	// The folder moved and is named again (--tasks-dir): it is taken from there.
	moved := tasksDir + "-moved"
	if err := os.Rename(tasksDir, moved); err != nil {
		t.Fatal(err)
	}
	again, err := tasks.FromDir(moved)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(out, append(builtin, again...), ResumeOptions{}); err != nil {
		t.Fatalf("resuming with the moved folder given: %v", err)
	}
	// The folder is gone and not given: the error names it.
	_, err = Resume(out, builtin, ResumeOptions{})
	if err == nil || !strings.Contains(err.Error(), mine.Origin) || !strings.Contains(err.Error(), "my_leap") || !strings.Contains(err.Error(), "--tasks-dir") {
		t.Fatalf("err = %v, want one naming my_leap, its folder %s and --tasks-dir", err, mine.Origin)
	}
}
