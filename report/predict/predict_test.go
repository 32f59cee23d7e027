package predict

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bench/internal/table"
	"bench/lesson"
	"bench/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var (
	before  = time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)
	started = time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
)

func mustAnswers(t *testing.T, s string) lesson.Answers {
	t.Helper()
	a, err := lesson.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestPredictNeedsAllThreeYes(t *testing.T) {
	for in, want := range map[string]string{"yyy": Workflow, "nyy": Agent, "yny": Agent, "yyn": Agent, "nnn": Agent} {
		if got := Predicts(mustAnswers(t, in)); got != want {
			t.Errorf("%s predicts %s, want %s", in, got, want)
		}
	}
}

func TestObserveMajority(t *testing.T) {
	cases := []struct {
		wf, agent     Tally
		want, missing string
	}{
		{Tally{1, 1}, Tally{0, 1}, Workflow, ""},
		{Tally{3, 4}, Tally{4, 4}, Workflow, ""},
		{Tally{2, 4}, Tally{3, 4}, Agent, ""}, // a tie is not most
		{Tally{1, 4}, Tally{2, 4}, Neither, ""},
		{Tally{0, 1}, Tally{0, 1}, Neither, ""},
		{Tally{2, 3}, Tally{0, 0}, Workflow, ""}, // the agent is not needed to decide
		{Tally{0, 3}, Tally{0, 0}, "", "no agent episodes"},
		{Tally{0, 0}, Tally{3, 3}, "", "no workflow episodes"},
	}
	for _, c := range cases {
		got, missing := Observe(c.wf, c.agent)
		if got != c.want || missing != c.missing {
			t.Errorf("Observe(workflow %s, agent %s) = %q, %q; want %q, %q", c.wf, c.agent, got, missing, c.want, c.missing)
		}
	}
}

// episodes makes n episodes of task and track, the first passed of them passing.
func episodes(task, track string, passed, n int) []record.Episode {
	var eps []record.Episode
	for i := range n {
		eps = append(eps, record.Episode{Task: task, Track: track, Seed: i + 1, Passed: i < passed, TestsPassed: 3, TestsTotal: 3, ExitReason: record.ExitDone})
	}
	return eps
}

// observe counts runs as the report does (record's verdict of each line;
// the report itself, which imports this package, cannot be used here: the
// CLI tests check the two together), one cell per task, track and model.
func observe(runs ...record.Data) Observed {
	var obs Observed
	at := map[[3]string]int{}
	for _, d := range runs {
		run := ObservedRun{Dir: d.Dir, Started: d.Run.Started, Answers: map[string]string{}}
		for _, t := range d.Run.Tasks {
			run.Tasks = append(run.Tasks, t.Name)
			run.Answers[t.Name] = t.Answers
		}
		for _, ep := range d.Episodes {
			if !slices.Contains(run.Tasks, ep.Task) {
				run.Tasks = append(run.Tasks, ep.Task)
			}
			v := ep.Verdict()
			if !v.Status.Counted() {
				continue
			}
			k := [3]string{ep.Task, ep.Track, ep.Model}
			i, ok := at[k]
			if !ok {
				i = len(obs.Cells)
				at[k] = i
				obs.Cells = append(obs.Cells, ObservedCell{Task: ep.Task, Track: ep.Track, Model: ep.Model})
			}
			obs.Cells[i].N++
			if v.Pass() {
				obs.Cells[i].Passed++
			}
		}
		obs.Runs = append(obs.Runs, run)
	}
	return obs
}

// lessonRun is a synthetic run shaped like the lesson's: parse_date needs an
// agent, slugify's workflow breaks the file, word_freq and leap_year pass
// both (leap_year's workflow in 3 of 4 seeds).
func lessonRun() record.Data {
	var eps []record.Episode
	eps = append(eps, episodes("parse_date", "workflow", 0, 4)...)
	eps = append(eps, episodes("parse_date", "agent", 3, 4)...)
	eps = append(eps, episodes("slugify", "workflow", 0, 4)...)
	eps = append(eps, episodes("slugify", "agent", 4, 4)...)
	eps = append(eps, episodes("word_freq", "workflow", 4, 4)...)
	eps = append(eps, episodes("word_freq", "agent", 4, 4)...)
	eps = append(eps, episodes("leap_year", "workflow", 3, 4)...)
	eps = append(eps, episodes("leap_year", "agent", 4, 4)...)
	eps = append(eps, episodes("tie", "workflow", 2, 4)...) // 2 of 4 is not most
	eps = append(eps, episodes("tie", "agent", 1, 2)...)
	eps = append(eps, episodes("extra", "workflow", 1, 1)...)
	eps = append(eps, record.Episode{Task: "word_freq", Track: "workflow", Seed: 9, ExitReason: record.ExitInterrupted})
	eps = append(eps, record.Episode{Task: "word_freq", Track: "oracle", Seed: 1, Passed: true})
	return record.Data{Dir: "results/lesson", Run: record.Run{Started: started}, Episodes: eps}
}

func lessonPredictions(t *testing.T) File {
	var f File
	for _, p := range [][2]string{
		{"parse_date", "nny"},
		{"slugify", "yyy"}, // the lesson's miss: the write-back, not the task, failed
		{"word_freq", "yyy"},
		{"leap_year", "yyy"},
		{"gone", "yyy"},
	} {
		f.Predictions = append(f.Predictions, NewPrediction(p[0], mustAnswers(t, p[1]), before))
	}
	return f
}

func TestCheckLesson(t *testing.T) {
	s, err := Check(lessonPredictions(t), observe(lessonRun()))
	if err != nil {
		t.Fatal(err)
	}
	if s.Right != 3 || s.Counted() != 4 {
		t.Errorf("score %d/%d, want 3/4", s.Right, s.Counted())
	}
	if s.Rows[1].Right || s.Rows[1].Observed != Agent {
		t.Errorf("slugify row %+v: want observed agent, a miss", s.Rows[1])
	}
	if s.Rows[2].Workflow != (Tally{4, 4}) {
		t.Errorf("word_freq workflow tally %s: the interrupted episode must not count", s.Rows[2].Workflow)
	}
	if len(s.Missing) != 1 || s.Missing[0].Task != "gone" || !slices.Equal(s.Unpredicted, []string{"extra", "tie"}) {
		t.Errorf("missing %v, unpredicted %v", s.Missing, s.Unpredicted)
	}
	var out bytes.Buffer
	if err := Write(&out, s, table.Text); err != nil {
		t.Fatal(err)
	}
	golden(t, "lesson.golden", out.Bytes())
}

func TestCheckMergesRuns(t *testing.T) {
	first := record.Data{Dir: "a", Run: record.Run{Started: started}, Episodes: episodes("leap_year", "workflow", 0, 2)}
	second := record.Data{Dir: "b", Run: record.Run{Started: started}, Episodes: episodes("leap_year", "workflow", 3, 3)}
	f := File{Predictions: []Prediction{NewPrediction("leap_year", mustAnswers(t, "yyy"), before)}}
	s, err := Check(f, observe(first, second))
	if err != nil || s.Rows[0].Workflow != (Tally{3, 5}) || s.Rows[0].Observed != Workflow {
		t.Fatalf("%+v, err %v", s.Rows, err)
	}
}

func TestCheckRefusesLatePredictions(t *testing.T) {
	f := lessonPredictions(t)
	f.Predictions[1].Time = started.Add(time.Second)
	f.Predictions[4].Time = started.Add(time.Hour) // "gone" is not in the run: no matter
	_, err := Check(f, observe(lessonRun()))
	if err == nil {
		t.Fatal("a prediction written after the run started was accepted")
	}
	msg := err.Error()
	for _, want := range []string{"slugify", "2026-11-29T22:00:01Z", "results/lesson", "started 2026-11-29T22:00:00Z", "before the run"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "gone") {
		t.Errorf("message %q blames a task the run does not hold", msg)
	}
	run := lessonRun()
	run.Run.Started = time.Time{}
	if _, err := Check(lessonPredictions(t), observe(run)); err == nil || !strings.Contains(err.Error(), "no start time") {
		t.Errorf("a run without a start time: err = %v", err)
	}
}

func TestCheckTieIsNeither(t *testing.T) {
	f := File{Predictions: []Prediction{NewPrediction("tie", mustAnswers(t, "yyy"), before)}}
	s, err := Check(f, observe(lessonRun()))
	if err != nil || len(s.Rows) != 1 || s.Rows[0].Observed != Neither || s.Rows[0].Right || s.Right != 0 {
		t.Fatalf("%+v, err %v; want observed neither, a miss", s.Rows, err)
	}
	var out bytes.Buffer
	Write(&out, s, table.Text)
	golden(t, "tie.golden", out.Bytes())
}

func TestWriteTextEmpty(t *testing.T) {
	var out bytes.Buffer
	Write(&out, Score{Missing: []Missing{{Task: "leap_year", Reason: "not in the run"}}}, table.Text)
	golden(t, "empty.golden", out.Bytes())
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "predictions.json")
	f := lessonPredictions(t)
	f.BenchVersion = "test"
	if err := Save(path, f, false); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format != FormatVersion || len(got.Predictions) != 5 || got.Predictions[0].Prediction != Agent || !got.Predictions[0].Time.Equal(before) {
		t.Fatalf("read back %+v", got)
	}
	if err := Save(path, f, false); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("Save over an existing file: err = %v", err)
	}
	f.Predictions = f.Predictions[:1]
	if err := Save(path, f, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(path); len(got.Predictions) != 1 {
		t.Fatalf("--force did not replace the file: %d predictions", len(got.Predictions))
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"not json":     `{"format": 1, "predictions": [`,
		"newer":        `{"format": 2, "predictions": []}`,
		"no format":    `{"predictions": []}`,
		"empty":        `{"format": 1, "predictions": []}`,
		"no task":      `{"format": 1, "predictions": [{"prediction": "agent", "time": "2026-01-01T00:00:00Z"}]}`,
		"no time":      `{"format": 1, "predictions": [{"task": "a", "prediction": "agent"}]}`,
		"inconsistent": `{"format": 1, "predictions": [{"task": "a", "points_at_every_line": true, "one_blind_edit": true, "context_suffices": true, "prediction": "agent", "time": "2026-01-01T00:00:00Z"}]}`,
		"twice":        `{"format": 1, "predictions": [{"task": "a", "prediction": "agent", "time": "2026-01-01T00:00:00Z"}, {"task": "a", "prediction": "agent", "time": "2026-01-01T00:00:00Z"}]}`,
	}
	wants := map[string]string{
		"not json": "not a valid predictions file", "newer": "format 2", "no format": "format", "empty": "no predictions",
		"no task": "prediction 1", "no time": "no \"time\"", "inconsistent": `answers yyy predict "workflow"`, "twice": "predicted twice",
	}
	for name, body := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		os.WriteFile(path, []byte(body), 0o644)
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), wants[name]) {
			t.Errorf("%s: err = %v; want one naming %s and saying %q", name, err, path, wants[name])
		}
	}
	if _, err := Load(filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "bench predict") {
		t.Errorf("missing file: err = %v", err)
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
