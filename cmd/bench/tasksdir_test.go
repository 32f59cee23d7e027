package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/record"
	"bench/tasks"

	"github.com/otiai10/copy"
)

// addTask copies the built-in task from into the tasks folder dir as the
// task name (its folder and its name field).
func addTask(t *testing.T, dir, from, name string) {
	t.Helper()
	dst := filepath.Join(dir, name)
	if err := copy.Copy(from, dst, copy.Options{FS: tasks.Embedded(), PermissionControl: copy.AddPermission(0o200)}); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dst, tasks.ManifestName)
	data := strings.Replace(mustRead(t, manifest), `name = "`+from+`"`, `name = "`+name+`"`, 1)
	if err := os.WriteFile(manifest, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTasksDirAddsToBuiltins(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	addTask(t, dir, "leap_year", "my_leap")
	out, _, err := runCLI(t, "tasks", "--tasks-dir", dir, "-f", "csv")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		names = append(names, strings.Split(line, ",")[0])
	}
	builtin, err := tasks.Load(tasks.Suite())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"my_leap"}
	for _, b := range builtin {
		want = append(want, b.Name)
	}
	slices.Sort(want)
	if got := strings.Join(names, " "); got != strings.Join(want, " ") {
		t.Errorf("tasks with --tasks-dir = %s, want the built-in ones and my_leap, sorted", got)
	}
}

func TestTasksDirClashNamesBothFolders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	addTask(t, dir, "parse_date", "parse_date")
	for _, args := range [][]string{{"tasks"}, {"run", "--tracks", "oracle"}, {"tasks", "verify"}} {
		_, _, err := runCLI(t, append(args, "--tasks-dir", dir)...)
		if err == nil {
			t.Fatalf("%s: a task named like a built-in one was accepted", args)
		}
		for _, want := range []string{`"parse_date"`, filepath.Join(dir, "parse_date"), "tasks/parse_date", "built-in"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q lacks %q", args, err, want)
			}
		}
	}
}

// TestTasksDirRunResumesWithoutTheFlag: run.json records where a task came
// from, and --resume finds it there.
func TestTasksDirRunResumesWithoutTheFlag(t *testing.T) {
	fixture.ParallelPython(t)
	dir := t.TempDir()
	addTask(t, dir, "leap_year", "my_leap")
	out := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", "--tracks", "oracle", "--seeds", "1", "--tasks", "my_leap,word_freq", "--tasks-dir", dir, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	data, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	if got := data.Run.Tasks; len(got) != 2 || got[0].Origin != abs || got[0].Answers != "yyy" || got[0].Archetype != "control" || got[1].Origin != record.OriginBuiltin {
		t.Fatalf("run.json tasks = %+v", got)
	}
	if _, stderr, err := runCLI(t, "run", "--resume", out); err != nil {
		t.Fatalf("resume without --tasks-dir: %v\n%s", err, stderr)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCLI(t, "run", "--resume", out)
	if err == nil || !strings.Contains(err.Error(), abs) || !strings.Contains(err.Error(), "my_leap") {
		t.Fatalf("resume after the folder was removed: %v, want an error naming my_leap and %s", err, abs)
	}
}
