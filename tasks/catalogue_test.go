package tasks

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/table"
)

// TestCatalogueAddsADirAndRefusesABuiltinName: a --tasks-dir task joins the
// built-in ones in name order; one named like a built-in task, or a folder
// that does not exist, is refused with the folder named.
func TestCatalogueAddsADirAndRefusesABuiltinName(t *testing.T) {
	builtin, err := Catalogue("")
	if err != nil || len(builtin) < 16 {
		t.Fatalf("built-in: %d tasks, %v", len(builtin), err)
	}
	parent := t.TempDir()
	if _, err := Scaffold(parent, "aaa_first"); err != nil {
		t.Fatal(err)
	}
	all, err := Catalogue(parent)
	if err != nil || len(all) != len(builtin)+1 || all[0].Name != "aaa_first" {
		t.Fatalf("with the dir: %v, %v", Names(all), err)
	}
	clash := t.TempDir()
	if err := os.CopyFS(filepath.Join(clash, "slugify"), mustSub(t, "slugify")); err != nil {
		t.Fatal(err)
	}
	if _, err := Catalogue(clash); err == nil || !strings.Contains(err.Error(), "built-in task of that name") || !strings.Contains(err.Error(), filepath.Join(clash, "slugify")) {
		t.Errorf("a built-in name: %v", err)
	}
	if _, err := Catalogue(filepath.Join(parent, "nope")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing dir: %v", err)
	}
}

func mustSub(t *testing.T, name string) fs.FS {
	t.Helper()
	sub, err := fs.Sub(Suite(), name)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// TestPick: names select in their order, "all" selects every task, an
// unknown name names the nearest known one; without names a run takes the
// course in the lesson's order, or every task of a folder without it.
func TestPick(t *testing.T) {
	all, err := Catalogue("")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Pick(all, []string{"slugify", " leap_year"})
	if err != nil || !slices.Equal(Names(got), []string{"slugify", "leap_year"}) {
		t.Errorf("two names: %v, %v", Names(got), err)
	}
	if got, err := Pick(all, []string{All}); err != nil || len(got) != len(all) {
		t.Errorf("all: %d tasks, %v", len(got), err)
	}
	if _, err := Pick(all, []string{"slugfy"}); err == nil || !strings.Contains(err.Error(), `unknown task "slugfy" (did you mean slugify?); known tasks: `) {
		t.Errorf("a misspelt name: %v", err)
	}
	if got, err := PickForRun(all, nil); err != nil || !slices.Equal(Names(got), Course) {
		t.Errorf("the default: %v, %v; want %v", Names(got), err, Course)
	}
	if got, err := PickForRun(all[:2], nil); err != nil || len(got) != 2 {
		t.Errorf("a folder without the course: %v, %v", Names(got), err)
	}
}

// TestCourseAnswers: the example answers each course task as task.toml
// designs it, in the lesson's order.
func TestCourseAnswers(t *testing.T) {
	got, err := CourseAnswers()
	if err != nil {
		t.Fatal(err)
	}
	course, _ := Load(Embedded())
	var want []string
	for _, name := range Course {
		for _, tk := range course {
			if tk.Name == name {
				want = append(want, name+"="+tk.Answers.String())
			}
		}
	}
	if got != strings.Join(want, ",") || len(want) != 4 {
		t.Errorf("got %q, want %q", got, strings.Join(want, ","))
	}
}

// TestScaffold: the scaffold loads as a task (with its placeholders
// named), and a bad name, a built-in name or an existing folder are
// refused without writing anything.
func TestScaffold(t *testing.T) {
	parent := t.TempDir()
	dir, err := Scaffold(parent, "off_by_one")
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromDir(parent)
	if err != nil || len(got) != 1 || got[0].Name != "off_by_one" || !slices.Equal(got[0].Placeholders(), []string{"title"}) {
		t.Fatalf("the scaffold loads as %+v, %v", got, err)
	}
	if info, err := os.Stat(filepath.Join(dir, "solution")); err != nil || !info.IsDir() {
		t.Errorf("no solution/: %v", err)
	}
	for name, want := range map[string]string{"Bad-Name": "lower-case", "slugify": "built-in task", "off_by_one": "already exists"} {
		if _, err := Scaffold(parent, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Scaffold(%q): %v, want %q", name, err, want)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("refused names left %d entries", len(entries))
	}
}

// TestWriteListing: the JSON lists each task's Info (the designed answers
// as three booleans), the table one row per task with its answers as
// letters and the course marked.
func TestWriteListing(t *testing.T) {
	all, err := Catalogue("")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteListing(&b, table.JSON, all); err != nil {
		t.Fatal(err)
	}
	var infos []Info
	if err := json.Unmarshal(b.Bytes(), &infos); err != nil || len(infos) != len(all) {
		t.Fatalf("%d infos, %v", len(infos), err)
	}
	i := slices.IndexFunc(infos, func(in Info) bool { return in.Name == "parse_date" })
	if i < 0 || !infos[i].Course || infos[i].Answers != [3]bool{false, false, true} || !slices.Contains(infos[i].Files, "dateparse.py") {
		t.Errorf("parse_date: %+v", infos[i])
	}
	b.Reset()
	if err := WriteListing(&b, table.CSV, all); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nparse_date,yes,unittest,") || !strings.Contains(b.String(), ",nny,") {
		t.Errorf("csv:\n%s", b.String())
	}
}

// TestNeedPrograms: a test command's program missing from PATH is one
// error naming it and a task that needs it.
func TestNeedPrograms(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := NeedPrograms([]Task{{Name: "x", TestCmd: []string{"python3", "-m", "unittest"}}})
	if err == nil || !strings.Contains(err.Error(), "python3 is needed on PATH") || !strings.Contains(err.Error(), "task x") {
		t.Errorf("got %v", err)
	}
}
