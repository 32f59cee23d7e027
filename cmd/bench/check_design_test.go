package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
	"bench/report/predict"
)

// TestCheckScoresEachQuestion: with the tasks' designs in run.json, check
// scores each question's predicted answers against them, in text and JSON.
func TestCheckScoresEachQuestion(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	file := filepath.Join(t.TempDir(), "p.json")
	if _, _, err := runCLI(t, "predict", "--out", file, "--answer", "parse_date=nny,slugify=yyy,word_freq=yyy,leap_year=yyn"); err != nil {
		t.Fatal(err)
	}
	run := writeLessonRun(t, runStarted)
	data, err := record.Read(run)
	if err != nil {
		t.Fatal(err)
	}
	data.Run.Tasks = []record.TaskRef{
		{Name: "leap_year", Answers: "yyy"}, {Name: "parse_date", Answers: "nny"},
		{Name: "slugify", Answers: "yyy"}, {Name: "word_freq", Answers: "nyy"},
	}
	js, _ := json.Marshal(data.Run)
	if err := os.WriteFile(filepath.Join(run, record.RunFile), js, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "check", "--predictions", file, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"score: 2/4 predictions right", " 1         3/4      word_freq\n 2         4/4\n 3         3/4      leap_year\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	jsonOut, _, err := runCLI(t, "check", "--predictions", file, run, "-f", "json")
	var score struct {
		Right     int                     `json:"right"`
		Questions []predict.QuestionScore `json:"questions"`
	}
	if err != nil || json.Unmarshal([]byte(jsonOut), &score) != nil || len(score.Questions) != 3 || score.Questions[2].Matched != 3 || score.Questions[2].Counted != 4 {
		t.Errorf("check -f json (err %v):\n%s", err, jsonOut)
	}
}
