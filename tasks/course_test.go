package tasks

import (
	"errors"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
)

// TestCourseIsTheEmbeddedSet: Course names exactly the tasks Embedded
// holds, so that a task added to one and not the other fails here.
func TestCourseIsTheEmbeddedSet(t *testing.T) {
	all, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tk := range all {
		names = append(names, tk.Name)
	}
	if got := slices.Sorted(slices.Values(Course)); !slices.Equal(got, names) {
		t.Errorf("Course %v, the embedded tasks %v", Course, names)
	}
	if slices.IsSorted(Course) {
		t.Error("Course is in alphabetical order, not the lesson's (parse_date first)")
	}
	if Course[0] != "parse_date" || !InCourse("leap_year") || InCourse("go_clamp") {
		t.Errorf("Course = %v", Course)
	}
}

// TestPlaceholders: a title or instruction that still begins with TODO (any
// case, after blanks) is named; a TODO further in is not a placeholder.
func TestPlaceholders(t *testing.T) {
	for _, c := range []struct {
		task Task
		want []string
	}{
		{Task{Title: "TODO: one line", Instruction: "Fix it."}, []string{"title"}},
		{Task{Title: "A bug", Instruction: "\n todo write this\n"}, []string{"instruction"}},
		{Task{Title: "todo", Instruction: "TODO"}, []string{"title", "instruction"}},
		{Task{Title: "A list of TODO items", Instruction: "Fix the TODO parser."}, nil},
	} {
		if got := c.task.Placeholders(); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.task, got, c.want)
		}
	}
	all, err := Load(Suite())
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		if ph := tk.Placeholders(); len(ph) > 0 {
			t.Errorf("built-in task %s holds a placeholder in %v", tk.Name, ph)
		}
	}
}

// TestEmbeddedIsAFileSystem: Embedded, the suite narrowed to the course
// tasks, behaves as an fs.FS must (fstest.TestFS reads every file and
// folder every way, ReadDir a few entries at a time included), shows no
// other task, and its files are the suite's.
func TestEmbeddedIsAFileSystem(t *testing.T) {
	course := Embedded()
	if err := fstest.TestFS(course, "leap_year/task.toml", "parse_date/repo"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(course, "temp_convert/task.toml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a suite task outside the course: %v, want not found", err)
	}
	want, _ := fs.ReadFile(Suite(), "leap_year/task.toml")
	if got, err := fs.ReadFile(course, "leap_year/task.toml"); err != nil || string(got) != string(want) || len(want) == 0 {
		t.Errorf("leap_year/task.toml reads %d bytes (%v), the suite's %d", len(got), err, len(want))
	}
}
