package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/record"
	"bench/record/recordtest"
)

// countingBench runs bench as a process of its own (the test binary as
// main) and returns its stdout, stderr and exit code.
func countingBench(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), benchAsSubprocess+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// countingRunFolder writes a run folder of one oracle episode of
// leap_year whose run.json has field set to the raw JSON value (deleted
// when value is ""), and returns it.
func countingRunFolder(t *testing.T, field, value string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	run := record.Run{ID: "run", Seeds: []int{1}, Tracks: []string{"oracle"}, RunSettings: record.RunSettings{Posture: "off", MaxTurns: 20, Tries: 2, Parallel: 1},
		Tasks:   []record.TaskRef{{Name: "leap_year", Checksum: "sha256:00", Origin: record.OriginBuiltin}},
		Started: time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)}
	recordtest.Write(t, dir, run, record.Episode{Task: "leap_year", Track: "oracle", Seed: 1, Passed: true, TestsPassed: 3, TestsTotal: 3, ExitReason: record.ExitDone})
	path := filepath.Join(dir, record.RunFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if value == "" {
		delete(m, field)
	} else {
		m[field] = json.RawMessage(value)
	}
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestResumeCorruptedRunJSON: `bench run --resume` on a run.json that no
// run holds ("tasks": [] made it panic with a Go stack trace) exits 1 with
// one line that names the file and the field; so does every command that
// reads the folder.
func TestResumeCorruptedRunJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ field, value, want string }{
		{"tasks", "[]", `field "tasks" is empty or missing`},
		{"tasks", "", `field "tasks" is empty or missing`},
		{"tracks", "[]", `field "tracks" is empty or missing`},
		{"seeds", `[1, "2"]`, `field "seeds" holds a JSON string where a whole number belongs`},
		{"shard", `{"index":2,"count":1}`, `field "shard" is part 2 of 1`},
		{"tasks", `[{"name":"../../elsewhere","checksum":"x"}]`, `field "tasks[0].name" is "../../elsewhere"`},
	} {
		dir := countingRunFolder(t, c.field, c.value)
		runJSON := filepath.Join(dir, record.RunFile)
		stdout, stderr, code := countingBench(t, "run", "--resume", dir)
		if code != 1 || !strings.Contains(stderr, runJSON+": "+c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 ||
			strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
			t.Errorf("run --resume with %s = %s: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1 and one line saying %q", c.field, c.value, code, stdout, stderr, c.want)
		}
		for _, args := range [][]string{{"report", dir}, {"show", dir}, {"compare", dir, dir}} {
			_, _, err := runCLI(t, args...)
			if err == nil || !strings.Contains(err.Error(), runJSON+": "+c.want) {
				t.Errorf("bench %s with %s = %s: err %v, want one saying %q", args[0], c.field, c.value, err, c.want)
			}
		}
	}
}
