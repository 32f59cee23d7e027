package predict

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"bench/internal/table"
	"bench/record"
)

// designedLessonRun is lessonRun with the tasks' designs in its run.json;
// word_freq is designed "nyy", so the lesson's "yyy" misses question 1.
func designedLessonRun() record.Data {
	run := lessonRun()
	run.Run.Tasks = []record.TaskRef{
		{Name: "parse_date", Answers: "nny"}, {Name: "slugify", Answers: "yyy"},
		{Name: "word_freq", Answers: "nyy"}, {Name: "leap_year", Answers: "yyy"},
		{Name: "tie"}, // no design recorded
	}
	return run
}

func TestCheckScoresEachQuestion(t *testing.T) {
	s, err := Check(lessonPredictions(t), observe(designedLessonRun()))
	if err != nil {
		t.Fatal(err)
	}
	want := []QuestionScore{
		{Question: 1, Matched: 3, Counted: 4, Mismatched: []string{"word_freq"}},
		{Question: 2, Matched: 4, Counted: 4},
		{Question: 3, Matched: 4, Counted: 4},
	}
	if len(s.Questions) != 3 {
		t.Fatalf("questions = %+v, want three", s.Questions)
	}
	for i, w := range want {
		g := s.Questions[i]
		if g.Question != w.Question || g.Matched != w.Matched || g.Counted != w.Counted || !slices.Equal(g.Mismatched, w.Mismatched) {
			t.Errorf("question %d: %+v, want %+v", i+1, g, w)
		}
	}
	if s.Right != 3 || s.Counted() != 4 {
		t.Errorf("the per-task score changed: %d/%d", s.Right, s.Counted())
	}
	var out bytes.Buffer
	if err := Write(&out, s, table.Text); err != nil {
		t.Fatal(err)
	}
	golden(t, "design.golden", out.Bytes())
}

// TestCheckWithoutDesigns: runs that record no designs score no question.
func TestCheckWithoutDesigns(t *testing.T) {
	s, err := Check(lessonPredictions(t), observe(lessonRun()))
	if err != nil || s.Questions != nil {
		t.Errorf("questions %+v (err %v), want none", s.Questions, err)
	}
}

// TestWriteMarkdownHoldsEveryTable checks that the Markdown a course page
// takes holds the per-question score as well as the per-task one.
func TestWriteMarkdownHoldsEveryTable(t *testing.T) {
	s, err := Check(lessonPredictions(t), observe(designedLessonRun()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, s, "markdown"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| parse_date | nny", "| question | matched | predicted otherwise |", "| 1        | 3/4     | word_freq", "- gone: not in the run"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out.String())
		}
	}
	golden(t, "design.md.golden", out.Bytes())
}
