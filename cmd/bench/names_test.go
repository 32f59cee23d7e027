package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDidYouMean checks that unknown commands, flags, tasks and tracks name
// the nearest known one, and that nothing is suggested for a word far from all.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"raport"}, `unknown command "raport" (did you mean bench report?); bench --help lists the commands`},
		{[]string{"help", "doctr"}, `unknown command "doctr" (did you mean bench doctor?)`},
		{[]string{"run", "--trakcs", "oracle"}, "unknown flag --trakcs (did you mean --tracks?); bench run --help lists the flags"},
		{[]string{"doctor", "--tracs", "oracle"}, "unknown flag --tracs (did you mean --tracks?)"},
		{[]string{"show", showRun, "--tsk", "slugify"}, "unknown flag --tsk (did you mean --task?) for bench show"},
		{[]string{"predict", "--tasks", "slugfy"}, `unknown task "slugfy" (did you mean slugify?); known tasks:`},
		{[]string{"doctor", "--tasks", "leap-year"}, `unknown task "leap-year" (did you mean leap_year?)`},
		{[]string{"doctor", "--format", "jsn"}, `unknown --format "jsn" (did you mean json?)`},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench %s: err = %v; want %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	_, _, err := runCLI(t, "xyzzyplugh")
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a word far from every command: err = %v", err)
	}
}

// TestShowAcceptsPluralFlags checks that show takes --tasks/--tracks/--seeds
// as run does, and -f for --format.
func TestShowAcceptsPluralFlags(t *testing.T) {
	t.Parallel()
	single, _, err := runCLI(t, "show", showRun, "--task", "slugify", "--track", "workflow", "--seed", "1")
	if err != nil {
		t.Fatal(err)
	}
	plural, _, err := runCLI(t, "show", showRun, "--tasks", "slugify", "--tracks", "workflow", "--seeds", "1", "-f", "text")
	if err != nil || plural != single {
		t.Errorf("plural flags: err %v, same output %v", err, plural == single)
	}
}

// TestPredictShortOutAndSingularTask checks -o for --out and --task for --tasks.
func TestPredictShortOutAndSingularTask(t *testing.T) {
	fakePredictEnv(t, predictedAt, false)
	out := filepath.Join(t.TempDir(), "p.json")
	if _, _, err := runCLI(t, "predict", "-o", out, "--task", "leap_year", "--answer", "leap_year=yyy"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Predictions []struct{ Task string } }
	if err := json.Unmarshal(b, &f); err != nil || len(f.Predictions) != 1 || f.Predictions[0].Task != "leap_year" {
		t.Errorf("predictions %s (%v)", b, err)
	}
}

func TestShowUnknownTaskSuggests(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "show", showRun, "--task", "slugfy")
	if err == nil || !strings.Contains(err.Error(), "did you mean --task slugify?") {
		t.Errorf("err = %v", err)
	}
	_, _, err = runCLI(t, "show", showRun, "--track", "agnet")
	if err == nil || !strings.Contains(err.Error(), "did you mean --track agent?") {
		t.Errorf("err = %v", err)
	}
}
