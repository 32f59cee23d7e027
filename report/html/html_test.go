package html

import (
	"bytes"
	"cmp"
	"flag"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/lesson"
	"bench/record"
	"bench/report"
	"bench/report/predict"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixtureDir is the small synthetic run the golden and browser tests read.
const fixtureDir = "testdata/show-run"

// readFixture reads the fixture run folder.
func readFixture(t testing.TB) []record.Data {
	t.Helper()
	data, err := record.Read(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	return []record.Data{data}
}

// fixtureScore is a made-up score: the fixture holds no task with both a
// workflow and an agent episode, which predict.Check needs to count one.
func fixtureScore() *predict.Score {
	at := time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)
	return &predict.Score{
		Rows: []predict.Row{
			{Prediction: predict.NewPrediction("parse_date", lesson.Answers{PointsAtEveryLine: true}, at),
				Workflow: predict.Tally{Passed: 0, N: 2}, Agent: predict.Tally{Passed: 1, N: 2}, Observed: predict.Neither},
			{Prediction: predict.NewPrediction("slugify", lesson.Answers{PointsAtEveryLine: true, OneBlindEdit: true, ContextSuffices: true}, at),
				Workflow: predict.Tally{Passed: 2, N: 2}, Agent: predict.Tally{Passed: 2, N: 2}, Observed: predict.Workflow, Right: true},
		},
		Missing:     []predict.Missing{{Task: "leap_year", Reason: "not in the run"}},
		Unpredicted: []string{"roman"},
		Right:       1,
		Questions: []predict.QuestionScore{
			{Question: 1, Matched: 2, Counted: 2}, {Question: 2, Matched: 1, Counted: 2, Mismatched: []string{"parse_date"}},
			{Question: 3, Matched: 1, Counted: 2, Mismatched: []string{"parse_date"}},
		},
	}
}

// renderFixture renders the fixture's page with its predictions.
func renderFixture(t testing.TB) []byte {
	t.Helper()
	runs := readFixture(t)
	var b bytes.Buffer
	if err := Write(&b, report.FromData(runs).Report(), runs, Options{Predictions: fixtureScore()}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	got := renderFixture(t)
	path := filepath.Join("testdata", "page.html.golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the page differs from %s (run with -update, then read the diff)", path)
	}
}

func TestPageHolds(t *testing.T) {
	page := string(renderFixture(t))
	for _, want := range []string{
		`id="episode-parse_date-agent-1-0"`, `id="episode-parse_date-agent-1-1"`,
		`id="episode-slugify-workflow-1-0"`, `id="episode-slugify-workflow-retry-1-0"`,
		`href="#episode-parse_date-agent-1-1"`, // linked from the tables
		`id="twins-parse_date-agent-1"`, `class="diverge" id="twins-parse_date-agent-1-diverge-1"`,
		`id="predictions"`, "Score: <strong>1/2</strong>", "<td>slugify</td><td><code>yyy</code></td><td>workflow</td>",
		`<tr><td>2</td><td>1/2</td><td>parse_date</td></tr>`, // the score per question
		`class="s k-fallback`, `class="s k-test`, `class="s k-model`, `class="s k-tool`, `class="s k-write`,
		"End: exit <strong>done</strong>", "Final result: <strong>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, banned := range []string{"<link", "src=", "@import", "url(http"} {
		if strings.Contains(page, banned) {
			t.Errorf("the page fetches something: it holds %q", banned)
		}
	}
	if n, rows := strings.Count(page, `<a class="bar`), strings.Count(page, `<tr id="row-`); n != 2*rows || rows == 0 {
		t.Errorf("%d bars in the charts for %d table rows; want two charts of one bar per row", n, rows)
	}
}

// TestPageListsEveryRunSetting: the page shows each run's value of every
// setting of the table that defines a run, by its flag's name, as
// Run.Settings spells it (a setting added to the table shows too).
func TestPageListsEveryRunSetting(t *testing.T) {
	page := string(renderFixture(t))
	run := readFixture(t)[0].Run
	n := 0
	for _, s := range run.Settings() {
		if d, _ := record.Lookup(s.Name); d.Source == record.FromTable {
			n++
			if row := "<dt>" + s.Name + "</dt><dd>" + template.HTMLEscapeString(cmp.Or(s.Value, "default")) + "</dd>"; !strings.Contains(page, row) {
				t.Errorf("the page lacks the setting %s: %s", s.Name, row)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d settings define a run; the test lost its point", n)
	}
}

func TestNoTrajectory(t *testing.T) {
	runs := readFixture(t)
	runs[0].Dir = t.TempDir() // episodes.jsonl lists episodes whose trajectories are not there
	var b bytes.Buffer
	if err := Write(&b, report.FromData(runs).Report(), runs, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "no timeline: episode parse_date/agent/seed-1 has no trajectory") {
		t.Errorf("a missing trajectory is not explained on its episode")
	}
	if err := Write(&b, nil, runs, Options{}); err == nil || !strings.Contains(err.Error(), "no report") {
		t.Errorf("Write with no report: %v", err)
	}
}

// TestPageShowsTheDesign: when run.json records the tasks' designs, the
// page has the by-question and by-archetype tables of the text report.
func TestPageShowsTheDesign(t *testing.T) {
	runs := readFixture(t)
	runs[0].Run.Tasks = []record.TaskRef{
		{Name: "parse_date", Archetype: "masked-second-bug", Answers: "nny"},
		{Name: "slugify", Archetype: "control", Answers: "yyy"},
	}
	var b bytes.Buffer
	if err := Write(&b, report.FromData(runs).Report(), runs, Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<section id="design">`, `href="#design"`,
		"<td>Q1 no</td><td>1</td>", "<td>Q1 yes</td><td>1</td>", "<td>masked-second-bug</td><td>parse_date</td>", "<th>agent passed</th>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(string(renderFixture(t)), `id="design"`) {
		t.Error("a page of runs without designs has a design section")
	}
}
