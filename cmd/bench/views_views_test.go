package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/record"
)

// TestViewsCausesShownWhereTheUserDecides: on one run of the lesson's
// designed failures, bench show of a failed episode starts with its cause
// and evidence; bench report has the table of causes; bench check
// explains each miss by the cause of the failures; and the same run with
// its causes stripped from episodes.jsonl (a run older than causes) gets
// them derived on read by show, and counted as not recorded by the report.
func TestViewsCausesShownWhereTheUserDecides(t *testing.T) {
	fixture.FullOnly(t, "report's and show's tests of causes")
	t.Parallel()
	preds := filepath.Join(t.TempDir(), "predictions.json")
	args := []string{"predict", "--out", preds, "--tasks", "parse_date,slugify,leap_year,file_sizes,word_freq"}
	for _, a := range []string{"parse_date=yyy", "slugify=yyy", "leap_year=nyy", "file_sizes=yyy", "word_freq=yyy"} {
		args = append(args, "--answer", a)
	}
	if _, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("bench predict: %v\n%s", err, stderr)
	}
	dir, _ := viewsCauseRun(t)

	out, stderr, err := runCLI(t, "show", dir, "--task", "slugify", "--track", "workflow", "--seed", "1")
	if err != nil {
		t.Fatalf("bench show: %v\n%s", err, stderr)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[2], "why it failed") || !strings.Contains(lines[3], "lost_content") || !strings.Contains(lines[3], "`import re`") {
		t.Errorf("bench show does not start with the cause:\n%s", strings.Join(lines[:min(6, len(lines))], "\n"))
	}
	out, _, err = runCLI(t, "show", dir, "--task", "parse_date", "--track", "workflow", "--seed", "1", "--format", "json")
	var doc struct {
		Causes struct {
			List []record.Cause `json:"list"`
			How  string         `json:"how"`
		} `json:"causes"`
	}
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil || doc.Causes.How != "recorded" || len(doc.Causes.List) == 0 || doc.Causes.List[0].Name != record.CauseMaskedFailure {
		t.Errorf("bench show --format json: %v, causes %+v", err, doc.Causes)
	}

	out, _, err = runCLI(t, "report", dir)
	if err != nil || !strings.Contains(out, "Why the failed episodes failed") || !viewsLineHas(out, "parse_date", "workflow", "masked_failure 1") {
		t.Errorf("bench report lacks the causes (%v):\n%s", err, out)
	}

	out, stderr, err = runCLI(t, "check", "--predictions", preds, dir)
	if err != nil {
		t.Fatalf("bench check: %v\n%s", err, stderr)
	}
	for _, want := range []string{
		"parse_date: predicted workflow (yyy); the workflow failed by masked_failure in 1/1 failed episodes: question 1 was no",
		"slugify: predicted workflow (yyy); the workflow failed by lost_content in 1/1 failed episodes: its write-back rule, not the task",
		"file_sizes: predicted workflow (yyy); the workflow failed by broke_tests in 1/1 failed episodes: question 2 was no",
		"word_freq: predicted workflow (yyy); the workflow failed by cut_reply in 1/1 failed episodes: the run's limits",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("bench check lacks %q:\n%s", want, out)
		}
	}

	old := viewsStripCauses(t, dir)
	out, stderr, err = runCLI(t, "show", old, "--task", "slugify", "--track", "workflow", "--seed", "1")
	if err != nil || !strings.Contains(out, "why it failed (derived now from the trajectory") || !strings.Contains(out, "lost_content") {
		t.Errorf("bench show of an older run does not derive the causes (%v %s):\n%s", err, stderr, out)
	}
	out, _, err = runCLI(t, "report", old)
	if err != nil || !viewsLineHas(out, "parse_date", "workflow", "not recorded 1") {
		t.Errorf("bench report of an older run does not say the causes are not recorded (%v):\n%s", err, out)
	}
}

// viewsLineHas reports whether a line of out holds every part.
func viewsLineHas(out string, parts ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return true
		}
	}
	return false
}

// viewsStripCauses copies the run folder dir with causes and files_written
// taken out of every episode line, as a run from before causes has them.
func viewsStripCauses(t *testing.T, dir string) string {
	t.Helper()
	old := filepath.Join(t.TempDir(), "old")
	if err := os.CopyFS(old, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(old, record.EpisodesFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "causes")
		delete(m, "files_written")
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	if err := os.WriteFile(filepath.Join(old, record.EpisodesFile), []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return old
}
