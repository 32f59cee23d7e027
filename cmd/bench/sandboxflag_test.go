package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
	"bench/sandbox"
)

// TestRunRecordsItsSandbox: run.json and the report header say what the
// sandbox was, as sandbox.Plan describes this machine; every episode's
// grading ran in the same layers.
func TestRunRecordsItsSandbox(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := runCLI(t, "run", "--tracks", "oracle", "--tasks", "leap_year", "--out", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want, _ := sandbox.Plan(sandbox.Config{Mode: sandbox.Auto})
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := data.Run.Sandbox
	if got == nil || got.FS != want.FS || got.Net != want.Net || got.PID != want.PID {
		t.Fatalf("run.json sandbox %+v, want %s", got, want)
	}
	for _, ep := range data.Episodes {
		if ep.Sandbox == nil || *ep.Sandbox != *got {
			t.Errorf("episode %s graded in %+v, the run says %+v", ep.Key(), ep.Sandbox, got)
		}
	}
	if line := "sandbox fs=" + want.FS + " net=" + want.Net + " pid=" + want.PID; !strings.Contains(stdout, line) {
		t.Errorf("the report does not say %q:\n%s", line, stdout)
	}
}

// TestRunRefusesAnUnknownSandbox: --sandbox takes auto, on or off, and a
// wrong word creates nothing.
func TestRunRefusesAnUnknownSandbox(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "never")
	_, _, err := runCLI(t, "run", "--tracks", "oracle", "--tasks", "leap_year", "--sandbox", "maybe", "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "auto, on or off") {
		t.Fatalf("--sandbox maybe: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused run created %s", dir)
	}
}
