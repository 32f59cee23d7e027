package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bench/report/predict"
	"bench/runflags"
	"bench/tasks"
)

// TestPredictAsksInTheLessonsOrder: with no --tasks, bench predict asks
// about the four course tasks in the lesson's order (parse_date first, as
// the README and its --answer example list them), not alphabetically, and
// writes them in that order.
func TestPredictAsksInTheLessonsOrder(t *testing.T) {
	fakePredictEnv(t, predictedAt, true)
	file := filepath.Join(t.TempDir(), "p.json")
	out, _, err := runCLIInput(t, strings.Repeat("y\n", 12), "predict", "--out", file)
	if err != nil {
		t.Fatal(err)
	}
	var asked []int
	for _, name := range tasks.Course {
		asked = append(asked, strings.Index(out, name+": "))
	}
	if slices.Contains(asked, -1) || !slices.IsSorted(asked) {
		t.Errorf("asked in the order %v of %v:\n%s", asked, tasks.Course, out)
	}
	f, err := predict.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, p := range f.Predictions {
		written = append(written, p.Task)
	}
	if !slices.Equal(written, tasks.Course) {
		t.Errorf("wrote %v, want %v", written, tasks.Course)
	}
}

// TestPredictHelpExampleIsTheDesign: the example of bench predict --help
// answers each course task as it was designed (parse_date is nny), in the
// lesson's order, and runs.
func TestPredictHelpExampleIsTheDesign(t *testing.T) {
	out, _, err := runCLI(t, "predict", "--help")
	if err != nil {
		t.Fatal(err)
	}
	course, err := runflags.PickRunTasks(mustLoadTasks(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tk := range course {
		want = append(want, tk.Name+"="+tk.Answers.String())
	}
	if example := "--answer " + strings.Join(want, ","); !strings.Contains(out, example) {
		t.Errorf("help lacks the designed example %q:\n%s", example, out)
	}
	fakePredictEnv(t, predictedAt, false)
	if _, _, err := runCLI(t, "predict", "--out", filepath.Join(t.TempDir(), "p.json"), "--answer", strings.Join(want, ",")); err != nil {
		t.Errorf("the example fails: %v", err)
	}
}

// TestPredictAnswerSuggestsTheTask: a mistyped task inside --answer is
// answered with the nearest task to predict.
func TestPredictAnswerSuggestsTheTask(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	_, _, err := runCLI(t, "predict", "--out", filepath.Join(t.TempDir(), "p.json"), "--answer", "parse_dat=nny")
	if err == nil || !strings.Contains(err.Error(), "did you mean parse_date?") {
		t.Errorf("err = %v", err)
	}
}

// TestTasksMarksTheCourse: bench tasks marks the four course tasks, in
// the table and in JSON, and no other.
func TestTasksMarksTheCourse(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "tasks", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "task,course,") {
		t.Fatalf("header %q", lines[0])
	}
	marked := 0
	for _, l := range lines[1:] {
		name, rest, _ := strings.Cut(l, ",")
		mark, _, _ := strings.Cut(rest, ",")
		if (mark == "yes") != tasks.InCourse(name) {
			t.Errorf("task %s marked %q", name, mark)
		}
		if mark == "yes" {
			marked++
		}
	}
	if marked != len(tasks.Course) {
		t.Errorf("%d tasks marked, want %d", marked, len(tasks.Course))
	}
	js, _, err := runCLI(t, "tasks", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var infos []tasks.Info
	if err := json.Unmarshal([]byte(js), &infos); err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if in.Course != tasks.InCourse(in.Name) {
			t.Errorf("JSON: %s course = %v", in.Name, in.Course)
		}
	}
}

// mustLoadTasks is the tasks bench sees with no --tasks-dir.
func mustLoadTasks(t *testing.T) []tasks.Task {
	t.Helper()
	all, err := tasks.Catalogue("")
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestTasksVerifyRefusesATODOTitle: a scaffolded task whose solution
// passes is still refused while its title reads TODO, and verified once
// the title is written.
func TestTasksVerifyRefusesATODOTitle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := runCLI(t, "tasks", "new", "off_by_one", "--dir", dir); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "off_by_one", "repo", "off_by_one.py")
	if err := os.WriteFile(filepath.Join(dir, "off_by_one", "solution", "off_by_one.py"), []byte(strings.Replace(mustRead(t, src), "41", "42", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "tasks", "verify", "--tasks-dir", dir, "off_by_one")
	if err == nil || !strings.Contains(out, "title still begins with TODO") || !strings.Contains(err.Error(), "text written") {
		t.Fatalf("a TODO title verified (err %v):\n%s", err, out)
	}
	manifest := filepath.Join(dir, "off_by_one", "task.toml")
	if err := os.WriteFile(manifest, []byte(strings.Replace(mustRead(t, manifest), "TODO: one line that says what is broken", "An answer one short", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, err := runCLI(t, "tasks", "verify", "--tasks-dir", dir, "off_by_one"); err != nil {
		t.Errorf("a written title: %v\n%s", err, out)
	}
}

// TestLessonMistypedCommandSuggests: an abbreviated command (bench rpt) is
// answered with the command it abbreviates.
func TestLessonMistypedCommandSuggests(t *testing.T) {
	t.Parallel()
	for word, want := range map[string]string{"rpt": "report", "reprt": "report", "cmp": "compare", "predcit": "predict"} {
		_, _, err := runCLI(t, word)
		if err == nil || !strings.Contains(err.Error(), "(did you mean bench "+want+"?)") {
			t.Errorf("bench %s: %v", word, err)
		}
	}
}

// TestLessonFlagErrorsSpellTwoDashes: a flag without its value is named as
// bench spells it, --out, never -out.
func TestLessonFlagErrorsSpellTwoDashes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"run", "--out"}, {"predict", "--answer"}, {"report", "--format"}, {"run", "--seeds"}} {
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), "flag needs an argument: "+args[1]+";") {
			t.Errorf("bench %s: %v", strings.Join(args, " "), err)
		}
	}
	_, _, err := runCLI(t, "run", "-o")
	if err == nil || !strings.Contains(err.Error(), "flag needs an argument: -o;") {
		t.Errorf("a short flag keeps its one dash: %v", err)
	}
}

// lessonPredictDocs are the documents whose TASK=letters examples must be
// the designed answers.
var lessonPredictDocs = []string{"README.md", "report/predict/README.md"}

// TestLessonPredictDocsMatchTheDesign: every TASK=letters example of the
// predict documentation answers a task as it was designed.
func TestLessonPredictDocsMatchTheDesign(t *testing.T) {
	t.Parallel()
	for _, path := range lessonPredictDocs {
		checkDesignedExamples(t, path, mustRead(t, filepath.Join("..", "..", filepath.FromSlash(path))))
	}
}

// checkDesignedExamples checks the TASK=letters examples of one document.
func checkDesignedExamples(t *testing.T, path, doc string) {
	t.Helper()
	designed := map[string]string{}
	for _, tk := range mustLoadTasks(t) {
		designed[tk.Name] = tk.Answers.String()
	}
	found := 0
	for _, m := range regexp.MustCompile(`([a-z_]+)=([yn]{3})\b`).FindAllStringSubmatch(doc, -1) {
		found++
		if want, ok := designed[m[1]]; ok && want != m[2] {
			t.Errorf("%s answers %s=%s; it was designed %s", path, m[1], m[2], want)
		}
	}
	if found == 0 {
		t.Fatalf("%s: no example found: the test reads nothing", path)
	}
}
