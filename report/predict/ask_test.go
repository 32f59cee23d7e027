package predict

import (
	"bufio"
	"strings"
	"testing"
	"time"

	"bench/lesson"
)

// TestParseAnswerFlags: TASK=yyn values read into answers per task; a
// missing task, bad letters or a task answered twice are refused.
func TestParseAnswerFlags(t *testing.T) {
	got, err := ParseAnswerFlags([]string{"slugify=yyy", " parse_date =nny"})
	if err != nil || len(got) != 2 || !got["slugify"].AllYes() || got["parse_date"].String() != "nny" {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range [][]string{{"=yyn"}, {"slugify"}, {"slugify=yy"}, {"a=yyn", "a=nnn"}} {
		if _, err := ParseAnswerFlags(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestUnanswered: the tasks without an answer, in order; an answer for a
// task not predicted names the nearest one.
func TestUnanswered(t *testing.T) {
	given := map[string]lesson.Answers{"slugify": {}}
	got, err := Unanswered([]string{"parse_date", "slugify", "leap_year"}, given)
	if err != nil || strings.Join(got, ",") != "parse_date,leap_year" {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := Unanswered([]string{"slugify_x"}, map[string]lesson.Answers{"slugify": {}}); err == nil || !strings.Contains(err.Error(), "slugify is not among the tasks to predict") {
		t.Errorf("a task not predicted: %v", err)
	}
}

// TestAsk: a question is asked again until it gets y or n; input that ends
// first is an error that says nothing was written.
func TestAsk(t *testing.T) {
	var w strings.Builder
	a, err := Ask(&w, bufio.NewReader(strings.NewReader("maybe\nY\nno\nyes\n")), "slugify", "slugify: intro")
	if err != nil || a.String() != "yny" {
		t.Fatalf("got %s, %v", a, err)
	}
	if strings.Count(w.String(), "please answer y or n") != 1 || !strings.HasPrefix(w.String(), "slugify: intro\n  1. "+lesson.Questions[0]) {
		t.Errorf("asked:\n%s", w.String())
	}
	if _, err := Ask(&w, bufio.NewReader(strings.NewReader("y\n")), "slugify", ""); err == nil || !strings.Contains(err.Error(), "before question 2 about slugify") {
		t.Errorf("input ended: %v", err)
	}
}

// TestWriteSaved: one line per prediction and the command to score them.
func TestWriteSaved(t *testing.T) {
	f := File{Predictions: []Prediction{NewPrediction("slugify", lesson.Answers{PointsAtEveryLine: true, OneBlindEdit: true, ContextSuffices: true}, time.Now())}}
	var w strings.Builder
	if err := WriteSaved(&w, "p.json", f); err != nil {
		t.Fatal(err)
	}
	if want := "slugify          yyy  workflow\nwrote 1 predictions to p.json; after the run: bench check --predictions p.json RUN_DIR\n"; w.String() != want {
		t.Errorf("got %q\nwant %q", w.String(), want)
	}
}
