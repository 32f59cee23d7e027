package tasks

import (
	"slices"
	"testing"
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
