package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// syntheticRun is the labelled synthetic run folder of the report's golden
// tests (see report/testdata/README.md); syntheticNew is a second one.
const (
	syntheticRun = "../../report/testdata/synthetic-run"
	syntheticNew = "../../report/testdata/synthetic-new"
)

func TestReportGoldenEveryFormat(t *testing.T) {
	t.Parallel()
	for _, f := range []struct{ format, golden string }{
		{"text", "report.txt.golden"},
		{"markdown", "report.md.golden"},
		{"csv", "report.csv.golden"},
		{"json", "report.json.golden"},
	} {
		t.Run(f.format, func(t *testing.T) {
			out, errOut, err := runCLI(t, "report", "--format", f.format, syntheticRun)
			if err != nil {
				t.Fatalf("bench report: %v\n%s", err, errOut)
			}
			checkGolden(t, f.golden, out)
		})
	}
}

func TestReportFlagsAfterFolders(t *testing.T) {
	t.Parallel()
	before, _, err := runCLI(t, "report", "--format", "csv", syntheticRun)
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := runCLI(t, "report", syntheticRun, "--format=csv")
	if err != nil {
		t.Fatal(err)
	}
	if before != after || !strings.HasPrefix(after, "run,model,task,track,n,lost,passed") {
		t.Errorf("--format after the folder gave another output:\n%s\nvs\n%s", after, before)
	}
}

func TestReportMergesRunsAndNotesDigests(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "report", syntheticRun, syntheticNew)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"run synthetic-run:", "run synthetic-new:",
		" parse_date  workflow  9/12 ", // 1/4 + 8/8 merged
		"the digest differs between merged runs (sha256:synthetic0000, sha256:synthetic1111)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("merged report lacks %q:\n%s", want, out)
		}
	}
}

func TestReportPlot(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.svg")
	if _, errOut, err := runCLI(t, "report", syntheticRun, "--plot", path); err != nil {
		t.Fatalf("bench report --plot: %v\n%s", err, errOut)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "parse_date", "leap_year"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the plot lacks %q (%d bytes)", want, len(svg))
		}
	}
}

func TestReportBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "at least one run folder"},
		{[]string{"report", "--format", "xml", syntheticRun}, `unknown --format "xml": want one of text, markdown, csv, json`},
		{[]string{"report", syntheticRun, "--colour", "red"}, "unknown flag --colour"},
		{[]string{"report", syntheticRun, "--format"}, "flag --format needs a value"},
		{[]string{"report", filepath.Join(t.TempDir(), "missing")}, "does not exist"},
		{[]string{"compare", syntheticRun}, "compare needs two run folders, OLD and NEW; got 1"},
		{[]string{"compare", syntheticRun, syntheticNew, "--format", "xml"}, `unknown --format "xml": want one of text, markdown, csv, json`},
		{[]string{"compare", syntheticRun, syntheticNew, "--alpha", "1.5"}, "--alpha 1.5: the significance level is a number between 0 and 1"},
		{[]string{"compare", syntheticRun, syntheticNew, "--alpha", "0"}, "--alpha 0: the significance level"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bench %s: err = %v, want one containing %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}

func TestCompareGolden(t *testing.T) {
	t.Parallel()
	out, errOut, err := runCLI(t, "compare", syntheticRun, syntheticNew)
	if err != nil {
		t.Fatalf("bench compare: %v\n%s", err, errOut)
	}
	checkGolden(t, "compare.txt.golden", out)
	for _, want := range []string{"~ (p=0.500 3 pairs)", "~ (p=1.000 3 pairs)", "paired: McNemar, Wilcoxon"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q", want)
		}
	}
}

// TestCompareNamesWhatItLeftOut: cells that only one run holds are named on
// stderr, not dropped in silence.
func TestCompareNamesWhatItLeftOut(t *testing.T) {
	t.Parallel()
	other := filepath.Join("testdata", "show-run")
	out, errOut, err := runCLI(t, "compare", syntheticRun, other)
	if err != nil {
		t.Fatalf("bench compare: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "parse_date") {
		t.Errorf("the common cell parse_date/agent was not compared:\n%s", out)
	}
	for _, want := range []string{
		"not compared, only in " + syntheticRun + ": leap_year/agent, leap_year/oracle, leap_year/workflow, parse_date/workflow",
		"not compared, only in " + other + ": slugify/workflow",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestCompareFormatsAndAlpha: compare takes --format csv (fixed header) and
// json, and --alpha changes the level in the output.
func TestCompareFormatsAndAlpha(t *testing.T) {
	t.Parallel()
	out, errOut, err := runCLI(t, "compare", syntheticRun, syntheticNew, "--format", "csv")
	if err != nil {
		t.Fatalf("bench compare --format csv: %v\n%s", err, errOut)
	}
	if !strings.HasPrefix(out, "task,track,model,old_model,old_n,new_n,") || !strings.Contains(out, "parse_date,workflow,qwen3:8b,qwen3:8b,4,8,1,8,") {
		t.Errorf("compare csv:\n%s", out)
	}
	out, _, err = runCLI(t, "compare", syntheticRun, syntheticNew, "--format", "json", "--alpha", "0.01")
	if err != nil || !strings.Contains(out, `"alpha": 0.01`) || !strings.Contains(out, `"need_per_side": 5`) {
		t.Errorf("compare json at --alpha 0.01 (err %v):\n%s", err, out)
	}
	out, _, _ = runCLI(t, "compare", syntheticRun, syntheticNew, "--alpha", "0.01")
	if !strings.Contains(out, "not significant at α = 0.01") {
		t.Errorf("the text does not name α = 0.01:\n%s", out)
	}
}

// TestCompareWarnsAboutSettings: two runs that differ in settings (here the
// model digest) are compared with a note saying so.
func TestCompareWarnsAboutSettings(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "compare", syntheticRun, syntheticNew)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "the runs differ in model-digest (old: sha256:synthetic0000, new: sha256:synthetic1111)") {
		t.Errorf("no note on the differing settings:\n%s", out)
	}
}

// TestReportCSVsConcatenate: the CSVs of two runs, the second without its
// header (tail -n +2), read as one table.
func TestReportCSVsConcatenate(t *testing.T) {
	t.Parallel()
	a, _, err := runCLI(t, "report", "--format", "csv", syntheticRun)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCLI(t, "report", "--format", "csv", syntheticNew)
	if err != nil {
		t.Fatal(err)
	}
	headA, _, _ := strings.Cut(a, "\n")
	headB, bodyB, _ := strings.Cut(b, "\n")
	if headA != headB {
		t.Fatalf("headers differ:\n%s\n%s", headA, headB)
	}
	recs, err := csv.NewReader(strings.NewReader(a + bodyB)).ReadAll()
	if err != nil {
		t.Fatalf("the concatenated CSVs are not one table: %v", err)
	}
	runs := map[string]int{}
	level := slices.Index(recs[0], "level")
	for _, r := range recs[1:] {
		if r[level] == "row" { // the pooled answers follow the rows
			runs[r[0]]++
		}
	}
	if runs["synthetic-run"] != 5 || runs["synthetic-new"] != 5 {
		t.Errorf("rows per run = %v, want 5 of each", runs)
	}
}

// TestReportRunGivenTwiceCountsOnce: `bench report D D` counts each episode
// once, with a footnote.
func TestReportRunGivenTwiceCountsOnce(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "report", syntheticRun, syntheticRun)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{" parse_date  workflow  1/4 ", "run synthetic-run is given 2 times", "each episode counted once"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench report D D lacks %q:\n%s", want, out)
		}
	}
}

// TestReportForgedAndLostLines: a results line forged to say passed (its
// test counts say otherwise) is not a pass, and an episode lost to a server
// error is in no rate; both are said.
func TestReportForgedAndLostLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := `{"format":1,"id":"forged","backend":"ollama","model":"m","seeds":[1,2,3],"tracks":["agent"],"tasks":[{"name":"t"}]}`
	lines := []string{
		`{"format":1,"run":"forged","task":"t","track":"agent","seed":1,"passed":true,"tests_passed":2,"tests_total":2,"exit_reason":"done","prompt_tokens":10}`,
		`{"format":1,"run":"forged","task":"t","track":"agent","seed":2,"passed":true,"tests_passed":1,"tests_total":2,"exit_reason":"done","prompt_tokens":10}`,
		`{"format":1,"run":"forged","task":"t","track":"agent","seed":3,"passed":false,"exit_reason":"error","error_kind":"unreachable","error":"connection refused","retries":4}`,
	}
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(run), 0o644)
	os.WriteFile(filepath.Join(dir, "episodes.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, _, err := runCLI(t, "report", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		" t     agent  1/2     1 ",
		"1 episode inconsistent: the line says passed but its test counts disagree",
		"1 episode lost to server errors, not counted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
