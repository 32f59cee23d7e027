package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"bench/model/modeltest"
	"bench/record"
	"bench/runflags"
)

// TestLessonDryRunAsksNothing: --dry-run prints the plan of a shard as
// "8 of 16 episodes", what it may cost (worked out here by hand), under the
// folder as typed, and asks the server nothing and writes nothing.
func TestLessonDryRunAsksNothing(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("never asked"))
	t.Chdir(t.TempDir())
	stdout, stderr, err := runCLI(t, "run", "--dry-run", "--host", srv.URL, "--shard", "1/2", "--seeds", "1,2", "--out", "lesson/run")
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the dry run sent %d requests", n)
	}
	if _, err := os.Stat("lesson"); !os.IsNotExist(err) {
		t.Errorf("the dry run wrote lesson/: %v", err)
	}
	calls := 4*1 + 4*(record.DefaultMaxTurns+1) // 4 workflow episodes, 4 agent ones, of the shard's 8
	for _, want := range []string{
		"bench run: 8 of 16 episodes (4 tasks × 2 tracks × 2 seeds, shard 1/2) into lesson/run",
		"part 1/2: 8 of 16 episodes",
		fmt.Sprintf("at most %d model calls and %s reply tokens for 8 episodes", calls, thousands(calls*record.DefaultMaxTokens)),
		"parse_date, slugify, word_freq, leap_year",
		"wall time: estimated after the first episodes",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run lacks %q:\n%s", want, stdout)
		}
	}
}

// thousands writes n with commas, independently of plan's own helper.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestLessonCalibratedEstimate: --calibrate with a previous run gives a
// wall time before the first episode; a run of another model is refused
// before anything is asked.
func TestLessonCalibratedEstimate(t *testing.T) {
	t.Parallel()
	prev := sharedOracleRun(t)
	stdout, _, err := runCLI(t, "run", "--dry-run", "--tracks", "oracle", "--tasks", "leap_year", "--seeds", "1,2", "--calibrate", prev)
	if err != nil || !strings.Contains(stdout, "wall time: about ") || !strings.Contains(stdout, "from 1 episode of "+prev) {
		t.Errorf("calibrated dry run (err %v):\n%s", err, stdout)
	}
	_, _, err = runCLI(t, "run", "--dry-run", "--model", "other:1b", "--tasks", "leap_year", "--calibrate", prev)
	if err == nil || !strings.Contains(err.Error(), "--calibrate "+prev) {
		t.Errorf("calibrating a model run on a run of none: %v", err)
	}
}

// TestLessonRunHeaderNamesEveryModel: the header of a run of two models
// names each with its digest as run.json records it, the folder as typed,
// and every progress line names its episode's model.
func TestLessonRunHeaderNamesEveryModel(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Text("no file")))
	srv.SetModels(
		modeltest.Model{Name: "tiny", Digest: "sha256:aaaaaaaaaaaaaaaa11", Capabilities: []string{"completion"}},
		modeltest.Model{Name: "tinytools", Digest: "sha256:bbbbbbbbbbbbbbbb22", Capabilities: []string{"completion", "tools"}})
	t.Chdir(t.TempDir())
	_, stderr, err := runCLI(t, "run", "--host", srv.URL, "--model", "tiny,tinytools", "--tasks", "leap_year", "--tracks", "workflow", "--out", "lesson/run")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	data, err := record.Read("lesson/run")
	if err != nil {
		t.Fatal(err)
	}
	short := func(d string) string { return strings.TrimPrefix(d, "sha256:")[:12] }
	for _, want := range []string{
		"bench run: 2 episodes (1 task × 1 track × 2 models × 1 seed) into lesson/run",
		fmt.Sprintf("models: ollama tiny (digest %s), tinytools (digest %s)", short(data.Run.Models[0].Digest), short(data.Run.Models[1].Digest)),
		"] leap_year workflow tiny seed-1: ",
		"] leap_year workflow tinytools seed-1: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestRunHasTheSettingsFlags: bench run offers every flag of the settings
// table and of the model server that package runflags makes (whose own
// tests check them against the table).
func TestRunHasTheSettingsFlags(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for _, f := range runCommand().Flags {
		names[f.Names()[0]] = true
	}
	for _, f := range slices.Concat(runflags.Model(), runflags.Settings()) {
		if !names[f.Names()[0]] {
			t.Errorf("bench run lacks --%s", f.Names()[0])
		}
	}
}
