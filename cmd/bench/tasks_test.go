package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// copyTasks writes the built-in tasks into a fresh folder for --tasks-dir,
// each renamed my_<name> so as not to clash with the built-in one.
func copyTasks(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"leap_year", "parse_date", "slugify", "word_freq"} {
		addTask(t, dir, name, "my_"+name)
	}
	return dir
}

// treeHash hashes every path, mode and byte under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h.Write([]byte(rel + "\x00" + info.Mode().String() + "\x00"))
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestTasksTable(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "tasks")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tasks.golden", out)
}

func TestTasksJSON(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "tasks", "--json")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tasks-json.golden", out)
	var got []tasks.Info
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(got, func(ti tasks.Info) bool { return ti.Name == "parse_date" })
	if len(got) < 16 || i < 0 || got[i].Tests != 7 || got[i].Source != "dateparse.py" || !got[i].Partial {
		t.Errorf("unexpected JSON: %+v", got)
	}
}

func TestTasksFromDir(t *testing.T) {
	t.Parallel()
	dir := copyTasks(t)
	out, _, err := runCLI(t, "tasks", "--tasks-dir", dir, "-f", "csv")
	if err != nil {
		t.Fatal(err)
	}
	embedded, _, _ := runCLI(t, "tasks", "-f", "csv")
	for _, line := range strings.Split(strings.TrimSpace(embedded), "\n")[1:] {
		name, rest, _ := strings.Cut(line, ",")
		course := slices.Contains([]string{"leap_year", "parse_date", "slugify", "word_freq"}, name)
		copied := "my_" + name + "," + strings.TrimPrefix(rest, "yes") // a copy is not the course's task
		if !strings.Contains(out, "\n"+line+"\n") || course && !strings.Contains(out, "\n"+copied+"\n") {
			t.Errorf("--tasks-dir on renamed copies of the built-in tasks lacks %q or, for a course task, its copy:\n%s", line, out)
		}
	}
}

func TestTasksBadManifest(t *testing.T) {
	t.Parallel()
	dir := copyTasks(t)
	manifest := filepath.Join(dir, "my_slugify", "task.toml")
	data, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(data), `timeout = "30s"`, `timeout = 30`, 1)), 0o644)
	_, _, err := runCLI(t, "tasks", "--tasks-dir", dir)
	if err == nil {
		t.Fatal("a bad task.toml was accepted")
	}
	for _, want := range []string{manifest, `"timeout"`, "expected a string"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestTasksUnexpectedArgument(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "tasks", "verfy")
	if err == nil || !strings.Contains(err.Error(), `"verfy"`) {
		t.Errorf("err = %v", err)
	}
}

func TestTasksVerify(t *testing.T) {
	fixture.ParallelPython(t)
	out, _, err := runCLI(t, "tasks", "verify", "leap_year", "parse_date") // each task's checks are package verify's tests; parse_date has a partial fix
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkGolden(t, "tasks-verify.golden", out)
}

// TestTasksVerifyBrokenSolution: a --tasks-dir copy whose solution does not
// pass exits 1 naming the task, and verify leaves the folder as it was.
func TestTasksVerifyBrokenSolution(t *testing.T) {
	fixture.ParallelPython(t)
	dir := copyTasks(t)
	orig, err := os.ReadFile(filepath.Join(dir, "my_leap_year", "repo", "leap.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "my_leap_year", "solution", "leap.py"), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, dir)
	out, _, err := runCLI(t, "tasks", "verify", "--tasks-dir", dir, "my_leap_year", "my_word_freq")
	if err == nil {
		t.Fatalf("verify passed a broken solution:\n%s", out)
	}
	if code := exitCode(err, &strings.Builder{}); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if msg := err.Error(); !strings.Contains(msg, "my_leap_year (solution passes)") || strings.Contains(msg, "word_freq") {
		t.Errorf("error %q should name my_leap_year and its failed check only", msg)
	}
	if !strings.Contains(out, "FAIL") || !strings.Contains(out, "test_divisible_by_four_hundred") {
		t.Errorf("the table does not show the failure:\n%s", out)
	}
	if after := treeHash(t, dir); after != before {
		t.Error("tasks verify changed the tasks folder")
	}
}

func TestTasksVerifyUnknownTask(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "tasks", "verify", "leap")
	if err == nil || !strings.Contains(err.Error(), "known tasks: exam_average, file_sizes, go_cents, go_clamp, go_report, go_shapes, go_stack, leap_year, page_views, parse_date,") {
		t.Errorf("err = %v", err)
	}
}

func TestTasksVerifyMissingPython(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	out, _, err := runCLI(t, "tasks", "verify")
	if err == nil {
		t.Fatal("verify succeeded without python3")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "python3 is needed on PATH to run the tasks' tests") || strings.Contains(msg, "\n") {
		t.Errorf("err = %q, want one sentence about python3", msg)
	}
	if out != "" {
		t.Errorf("printed a table without python3:\n%s", out)
	}
}

// TestTasksDirBeforeVerify: --tasks-dir given to "tasks" reaches "verify".
func TestTasksDirBeforeVerify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, _, err := runCLI(t, "tasks", "--tasks-dir", dir, "verify")
	if err == nil || !strings.Contains(err.Error(), "no tasks in "+dir) {
		t.Errorf("err = %v, want the empty --tasks-dir to be used", err)
	}
}

func TestTasksShowDesign(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "tasks", "-f", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(got, func(m map[string]any) bool { return m["name"] == "parse_date" })
	if i < 0 {
		t.Fatalf("no parse_date in %v", got)
	}
	pd := got[i]
	if pd["name"] != "parse_date" || pd["archetype"] != "masked-second-bug" || pd["framework"] != "unittest" {
		t.Errorf("parse_date: %v", pd)
	}
	if a, ok := pd["answers"].([]any); !ok || len(a) != 3 || a[0] != false || a[1] != false || a[2] != true {
		t.Errorf("answers %v, want [false false true]", pd["answers"])
	}
	text, _, err := runCLI(t, "tasks")
	if err != nil || !strings.Contains(strings.Join(strings.Fields(text), " "), "parse_date yes unittest masked-second-bug nny 7 dateparse.py") {
		t.Errorf("text table lacks the design (err %v):\n%s", err, text)
	}
}

func TestTasksFormats(t *testing.T) {
	t.Parallel()
	csvOut, _, err := runCLI(t, "tasks", "--format", "csv")
	if err != nil || !strings.HasPrefix(csvOut, "task,course,framework,archetype,answers,tests,source,title\nexam_average,,unittest,misleading-traceback,nyy,4,grades.py,") {
		t.Errorf("csv (err %v):\n%s", err, csvOut)
	}
	md, _, err := runCLI(t, "tasks", "-f", "md")
	if err != nil || !strings.HasPrefix(md, "| task") {
		t.Errorf("markdown (err %v):\n%s", err, md)
	}
	if _, _, err := runCLI(t, "tasks", "--format", "yaml"); err == nil || !strings.Contains(err.Error(), "text, markdown, csv, json") {
		t.Errorf("yaml: err %v", err)
	}
}

// TestTasksNew scaffolds a task and checks that tasks verify fails it only
// because its solution/ is empty.
func TestTasksNew(t *testing.T) {
	fixture.ParallelPython(t)
	dir := t.TempDir()
	out, _, err := runCLI(t, "tasks", "new", "off_by_one", "--dir", dir)
	if err != nil || !strings.Contains(out, "bench tasks verify --tasks-dir "+dir) {
		t.Fatalf("err %v\n%s", err, out)
	}
	for _, f := range []string{"task.toml", "repo/off_by_one.py", "repo/test_off_by_one.py"} {
		if _, err := os.Stat(filepath.Join(dir, "off_by_one", f)); err != nil {
			t.Error(err)
		}
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "off_by_one", "solution")); err != nil || len(entries) != 0 {
		t.Errorf("solution/ should exist and be empty: %v %v", entries, err)
	}
	out, _, err = runCLI(t, "tasks", "verify", "--tasks-dir", dir, "off_by_one")
	if err == nil || !strings.Contains(err.Error(), "off_by_one (solution passes, text written)") { // and its title still reads TODO
		t.Fatalf("verify: err %v\n%s", err, out)
	}
	for _, want := range []string{"original fails    ok", "solution passes   FAIL", "folder unchanged  ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
	// The fixed module in solution/ is all it lacks.
	fixed := strings.Replace(mustRead(t, filepath.Join(dir, "off_by_one", "repo", "off_by_one.py")), "41", "42", 1)
	if err := os.WriteFile(filepath.Join(dir, "off_by_one", "solution", "off_by_one.py"), []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "off_by_one", "task.toml")
	if err := os.WriteFile(manifest, []byte(strings.Replace(mustRead(t, manifest), "TODO: one line that says what is broken", "An answer one short", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, err := runCLI(t, "tasks", "verify", "--tasks-dir", dir, "off_by_one"); err != nil {
		t.Errorf("with a solution and a title: %v\n%s", err, out)
	}
	list, _, err := runCLI(t, "tasks", "--tasks-dir", dir, "-f", "csv")
	if err != nil || !strings.Contains(list, "off_by_one,,unittest,control,yyy,1,off_by_one.py,An answer one short") {
		t.Errorf("listing (err %v):\n%s", err, list)
	}
}

func TestTasksNewRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := runCLI(t, "tasks", "new", "twice", "--dir", dir); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"twice", "--dir", dir}, "already exists"},
		{[]string{"Bad-Name", "--dir", dir}, `task name "Bad-Name"`},
		{[]string{"slugify", "--dir", dir}, "a built-in task is called slugify"},
		{[]string{"--dir", dir}, "needs one task name"},
	} {
		_, _, err := runCLI(t, append([]string{"tasks", "new"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("tasks new %q: err %v, want %q", tc.args, err, tc.want)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
