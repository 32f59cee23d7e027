package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/record"
	"bench/record/recordtest"
	"bench/report/predict"
)

var (
	predictedAt = time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)
	runStarted  = time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
)

// runCLIInput is runCLI with stdin read from input.
func runCLIInput(t *testing.T, input string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	app := newApp(&out, &errb)
	app.Reader = strings.NewReader(input)
	err = app.Run(append([]string{"bench"}, args...))
	return out.String(), errb.String(), err
}

// fakePredictEnv fixes the clock at at and says whether stdin is a terminal.
func fakePredictEnv(t *testing.T, at time.Time, terminal bool) {
	clock, isTerm := predictClock, predictIsTerminal
	t.Cleanup(func() { predictClock, predictIsTerminal = clock, isTerm })
	predictClock = func() time.Time { return at }
	predictIsTerminal = func(io.Reader) bool { return terminal }
}

// writeLessonRun writes a synthetic run folder shaped like the lesson's.
func writeLessonRun(t *testing.T, started time.Time) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	outcomes := map[string][2]bool{ // workflow, agent passed
		"parse_date": {false, true},
		"slugify":    {false, true},
		"word_freq":  {true, true},
		"leap_year":  {false, false},
	}
	var eps []record.Episode
	for task, passed := range outcomes {
		for i, track := range []string{"workflow", "agent"} {
			ep := record.Episode{Task: task, Track: track, Seed: 1, Passed: passed[i], TestsPassed: 2, TestsTotal: 3, ExitReason: record.ExitDone}
			if passed[i] {
				ep.TestsPassed = 3
			}
			eps = append(eps, ep)
		}
	}
	recordtest.Write(t, dir, record.Run{ID: "lesson", Started: started, Tracks: []string{"workflow", "agent"}, Seeds: []int{1},
		Tasks: []record.TaskRef{{Name: "leap_year"}, {Name: "parse_date"}, {Name: "slugify"}, {Name: "word_freq"}}}, eps...)
	return dir
}

func TestPredictThenCheck(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	file := filepath.Join(t.TempDir(), "p.json")
	out, _, err := runCLI(t, "predict", "--out", file, "--answer", "parse_date=nny", "--answer", "slugify=yyn,word_freq=yyy", "--answer", "leap_year=YYY")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "wrote 4 predictions to "+file) || !strings.Contains(out, "slugify          yyn  agent") {
		t.Errorf("predict printed:\n%s", out)
	}
	f, err := predict.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Predictions[3]; p.Task != "leap_year" || p.Prediction != predict.Workflow || !p.Time.Equal(predictedAt) || p.Time.Location() != time.UTC {
		t.Errorf("recorded %+v", p)
	}

	run := writeLessonRun(t, runStarted)
	out, _, err = runCLI(t, "check", "--predictions", file, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{" leap_year   yyy      workflow   0/1       0/1    neither   no", "score: 3/4 predictions right"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	csvOut, _, err := runCLI(t, "check", "--predictions", file, run, "-f", "csv")
	if err != nil || !strings.HasPrefix(csvOut, "task,answers,predicted,workflow,agent,observed,right\n") || !strings.Contains(csvOut, "leap_year,yyy,workflow,0/1,0/1,neither,no\n") {
		t.Errorf("check -f csv (err %v):\n%s", err, csvOut)
	}
	jsonOut, _, err := runCLI(t, "check", "--predictions", file, run, "--format", "json")
	var score struct {
		Right, Counted int
		Rows           []struct{ Task string }
	}
	if err != nil || json.Unmarshal([]byte(jsonOut), &score) != nil || score.Right != 3 || score.Counted != 4 || len(score.Rows) != 4 {
		t.Errorf("check --format json (err %v):\n%s", err, jsonOut)
	}
}

func TestPredictRefusesOverwrite(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	file := filepath.Join(t.TempDir(), "p.json")
	if _, _, err := runCLI(t, "predict", "--out", file, "--tasks", "leap_year", "--answer", "leap_year=yyy"); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "predict", "--out", file, "--tasks", "leap_year", "--answer", "leap_year=nnn")
	if err == nil || !strings.Contains(err.Error(), "already exists") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("err = %v", err)
	}
	if f, _ := predict.Load(file); f.Predictions[0].Prediction != predict.Workflow {
		t.Fatal("the refused run changed the file")
	}
	if _, _, err := runCLI(t, "predict", "--out", file, "--tasks", "leap_year", "--answer", "leap_year=nnn", "--force"); err != nil {
		t.Fatal(err)
	}
	if f, _ := predict.Load(file); f.Predictions[0].Prediction != predict.Agent {
		t.Fatal("--force did not replace the file")
	}
}

func TestPredictAsksOnATerminal(t *testing.T) {
	fakePredictEnv(t, predictedAt, true)
	file := filepath.Join(t.TempDir(), "p.json")
	out, _, err := runCLIInput(t, "y\nmaybe\nn\nyes\n", "predict", "--out", file, "--tasks", "parse_date,leap_year", "--answer", "leap_year=yyy")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "2. Will one edit") != 2 || !strings.Contains(out, "please answer y or n") || strings.Contains(out, "leap_year:") || !strings.Contains(out, "the workflow sends dateparse.py") {
		t.Errorf("questions asked:\n%s", out)
	}
	f, _ := predict.Load(file)
	if got := f.Predictions[0]; got.Task != "parse_date" || got.Answers.String() != "yny" || got.Prediction != predict.Agent {
		t.Errorf("recorded %+v", got)
	}

	_, _, err = runCLIInput(t, "y\n", "predict", "--out", filepath.Join(t.TempDir(), "q.json"), "--tasks", "slugify")
	if err == nil || !strings.Contains(err.Error(), "input ended before question 2") {
		t.Errorf("input ending early: err = %v", err)
	}
}

func TestPredictWithoutAnswersOffTerminal(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	file := filepath.Join(t.TempDir(), "p.json")
	_, _, err := runCLIInput(t, "y\ny\ny\n", "predict", "--out", file, "--tasks", "slugify,leap_year", "--answer", "leap_year=yyy")
	if err == nil || !strings.Contains(err.Error(), "no answers for slugify") || !strings.Contains(err.Error(), "--answer TASK=yyn") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a file was written without every answer")
	}
}

func TestPredictBadFlags(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	out := filepath.Join(t.TempDir(), "p.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--answer", "leap_year"}, "want TASK=yyn"},
		{[]string{"--answer", "leap_year=yes"}, "three letters"},
		{[]string{"--answer", "leap_year=yyy", "--answer", "leap_year=nnn"}, "answered twice"},
		{[]string{"--tasks", "slugify", "--answer", "leap_year=yyy"}, "leap_year is not among the tasks"},
		{[]string{"--tasks", "nope"}, `unknown task "nope"; known tasks: exam_average, file_sizes, go_cents,`},
		{[]string{"--tasks-dir", "/no/such/tasks", "--answer", "leap_year=yyy"}, "/no/such/tasks"},
		{[]string{"--answer", "leap_year=yyy"}, "no answers for parse_date, slugify, word_freq"},
	} {
		_, _, err := runCLI(t, append([]string{"predict", "--out", out}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("predict %q: err = %v; want %q", c.args, err, c.want)
		}
	}
}

func TestCheckRefusesLatePredictions(t *testing.T) {
	fakePredictEnv(t, runStarted.Add(time.Minute), false)
	file := filepath.Join(t.TempDir(), "p.json")
	if _, _, err := runCLI(t, "predict", "--out", file, "--tasks", "slugify", "--answer", "slugify=yyn"); err != nil {
		t.Fatal(err)
	}
	run := writeLessonRun(t, runStarted)
	out, _, err := runCLI(t, "check", "--predictions", file, run)
	if err == nil || !strings.Contains(err.Error(), "slugify: predicted 2026-11-29T22:01:00Z, but run "+run+" started 2026-11-29T22:00:00Z") {
		t.Fatalf("err = %v", err)
	}
	if out != "" {
		t.Errorf("a refused check printed a table:\n%s", out)
	}
}

func TestCheckErrors(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	dir := t.TempDir()
	file := filepath.Join(dir, "p.json")
	runCLI(t, "predict", "--out", file, "--tasks", "slugify", "--answer", "slugify=yyn")
	missingRun := filepath.Join(dir, "no-run")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--predictions", file}, "name at least one run folder"},
		{[]string{"--predictions", filepath.Join(dir, "none.json"), writeLessonRun(t, runStarted)}, "none.json does not exist"},
		{[]string{"--predictions", file, missingRun}, missingRun},
	} {
		_, _, err := runCLI(t, append([]string{"check"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check %q: err = %v; want %q", c.args, err, c.want)
		}
	}
}

func TestCheckWarnsAboutTornLines(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	file := filepath.Join(t.TempDir(), "p.json")
	runCLI(t, "predict", "--out", file, "--tasks", "slugify", "--answer", "slugify=yyn")
	run := writeLessonRun(t, runStarted)
	f, _ := os.OpenFile(filepath.Join(run, record.EpisodesFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"format":1,"task":"slu`)
	f.Close()
	out, stderr, err := runCLI(t, "check", "--predictions", file, run)
	if err != nil || !strings.Contains(stderr, "warning:") || !strings.Contains(stderr, "torn last line") || !strings.Contains(out, "score: 1/1") {
		t.Fatalf("err %v\nstderr %s\nstdout %s", err, stderr, out)
	}
}
