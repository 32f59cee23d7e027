package tasks

import (
	"fmt"
	"regexp"
	"strings"

	"bench/lesson"
)

// Frameworks a task's tests may use (task.toml's framework field).
const (
	FrameworkUnittest = "unittest" // python3 -m unittest -v; the default
	FrameworkGo       = "go"       // go test -json
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// designFields reads archetype, answers and framework into t.
func designFields(t *Task, raw map[string]any, bad badField) error {
	archetype, err := stringField(raw, "archetype")
	if err != nil {
		return bad("archetype", "%v", err)
	}
	if !kebab.MatchString(archetype) {
		return bad("archetype", "is %q; expected a short kebab-case name such as \"masked-second-bug\"", archetype)
	}
	t.Archetype = archetype
	if t.Answers, err = answersField(raw["answers"]); err != nil {
		return bad("answers", "%v", err)
	}
	framework, err := stringField(raw, "framework")
	if err != nil {
		return bad("framework", "%v", err)
	}
	switch framework {
	case "":
		t.Framework = FrameworkUnittest
	case FrameworkUnittest, FrameworkGo:
		t.Framework = framework
	default:
		return bad("framework", "is %q; expected %q (the default) or %q", framework, FrameworkUnittest, FrameworkGo)
	}
	return nil
}

// answersField reads a list of exactly three booleans, one per question
// of lesson.Questions.
func answersField(v any) (lesson.Answers, error) {
	var out [3]bool
	items, ok := v.([]any)
	if !ok {
		return lesson.Answers{}, fmt.Errorf("is %s; expected a list of three booleans, one per question, such as [true, false, true]", tomlType(v))
	}
	if len(items) != 3 {
		return lesson.Answers{}, fmt.Errorf("has %d items; expected three booleans, one per question: %s", len(items), strings.Join(lesson.Questions[:], " / "))
	}
	for i, it := range items {
		b, ok := it.(bool)
		if !ok {
			return lesson.Answers{}, fmt.Errorf("item %d is %s; expected true or false", i+1, tomlType(it))
		}
		out[i] = b
	}
	return lesson.FromList(out), nil
}

// Control reports whether every designed answer is yes: the fixed workflow
// should be enough.
func (t Task) Control() bool {
	return t.Answers.AllYes()
}

// Placeholders names the fields of the task's text still holding a
// placeholder of `bench tasks new` (a value that starts with "TODO"): a
// task is not ready while its title or instruction says nothing of it.
func (t Task) Placeholders() []string {
	var out []string
	for _, f := range []struct{ name, value string }{{"title", t.Title}, {"instruction", t.Instruction}} {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(f.value)), "TODO") {
			out = append(out, f.name)
		}
	}
	return out
}
