package record

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLineVerdict: each status from the rules written out case by case.
func TestLineVerdict(t *testing.T) {
	for _, c := range []struct {
		name            string
		passed          bool
		tp, tt          int
		exit            ExitReason
		kind            ErrorKind
		gradingTimedOut bool
		want            Verdict
	}{
		{"a pass", true, 5, 5, ExitDone, "", false, Verdict{StatusPassed, FlawNone}},
		{"a pass at max turns", true, 5, 5, ExitMaxTurns, "", false, Verdict{StatusPassed, FlawNone}},
		{"a failure", false, 3, 5, ExitDone, "", false, Verdict{StatusFailed, FlawNone}},
		{"a model error", false, 0, 5, ExitError, ErrorModel, false, Verdict{StatusFailed, FlawNone}},
		{"a lost one that graded", true, 5, 5, ExitError, ErrorServer, false, Verdict{StatusLost, FlawNone}},
		{"each infrastructure kind", false, 0, 0, ExitError, ErrorUnreachable, false, Verdict{StatusLost, FlawNone}},
		{"timeout kind", false, 0, 0, ExitError, ErrorCallTimeout, false, Verdict{StatusLost, FlawNone}},
		{"bad reply", false, 0, 0, ExitError, ErrorBadReply, false, Verdict{StatusLost, FlawNone}},
		{"interrupted", true, 5, 5, ExitInterrupted, "", false, Verdict{StatusInterrupted, FlawNone}},
		{"says passed, counts disagree", true, 4, 5, ExitDone, "", false, Verdict{StatusInconsistent, FlawContradicts}},
		{"says passed, no test ran", true, 0, 0, ExitDone, "", false, Verdict{StatusInconsistent, FlawContradicts}},
		{"says passed, ran out of time", true, 5, 5, ExitTimeout, "", false, Verdict{StatusInconsistent, FlawContradicts}},
		{"grading timed out", false, 0, 5, ExitDone, "", true, Verdict{StatusFailed, FlawGradingTimedOut}},
		{"says passed, grading timed out", true, 5, 5, ExitDone, "", true, Verdict{StatusFailed, FlawGradingTimedOut}},
	} {
		if got := LineVerdict(c.passed, c.tp, c.tt, c.exit, c.kind, c.gradingTimedOut); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	for s, counted := range map[Status]bool{StatusPassed: true, StatusFailed: true, StatusInconsistent: true, StatusLost: false, StatusInterrupted: false} {
		if s.Counted() != counted {
			t.Errorf("%s counted %v", s, s.Counted())
		}
	}
}

// TestLinesSayTheirStatus: a line of episodes.jsonl states its status, and
// a lost or interrupted episode is not "passed": true, whatever its
// grading said; a jq reader counting passes counts the report's.
func TestLinesSayTheirStatus(t *testing.T) {
	for _, c := range []struct {
		edit       func(*Episode)
		status     string
		passedJSON bool
	}{
		{func(e *Episode) { e.Passed, e.TestsPassed, e.TestsTotal = true, 4, 4 }, "passed", true},
		{func(e *Episode) { e.Passed = false }, "failed", false},
		{func(e *Episode) {
			e.Passed, e.TestsPassed, e.TestsTotal, e.ExitReason, e.ErrorKind = true, 4, 4, ExitError, ErrorServer
		}, "lost", false},
		{func(e *Episode) { e.Passed, e.TestsPassed, e.TestsTotal, e.ExitReason = true, 4, 4, ExitInterrupted }, "interrupted", false},
		{func(e *Episode) { e.Passed, e.TestsPassed, e.TestsTotal = true, 3, 4 }, "inconsistent", true},
	} {
		ep := sampleEpisode(1)
		c.edit(&ep)
		b, err := json.Marshal(ep)
		if err != nil {
			t.Fatal(err)
		}
		var line map[string]any
		if err := json.Unmarshal(b, &line); err != nil {
			t.Fatal(err)
		}
		if line["status"] != c.status || line["passed"] != c.passedJSON {
			t.Errorf("%s: line says status %v, passed %v: %s", c.status, line["status"], line["passed"], b)
		}
	}
}

// TestTrajectoryDecidesPasses: a pass whose recorded trajectory was edited
// or is gone is inconsistent; one whose file is there and whole stands; a
// failure with a missing file stays a failure, named as missing.
func TestTrajectoryDecidesPasses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	w, err := Create(dir, sampleRun())
	if err != nil {
		t.Fatal(err)
	}
	for seed := range 4 {
		tr, err := w.Trajectory("leap_year", "agent", seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		tr.Record(Event{Kind: EventEnd, Exit: ExitDone})
		tr.Close()
		b, _ := os.ReadFile(filepath.Join(dir, TrajectoriesDir, "leap_year", "agent", TrajectoryName(seed, 0)+".jsonl"))
		ep := Episode{Task: "leap_year", Track: "agent", Seed: seed, Passed: seed != 3, TestsPassed: 4, TestsTotal: 4, ExitReason: ExitDone, TrajectorySHA256: sha256Hex(b)}
		w.Append(ep)
	}
	w.Close()
	os.WriteFile(filepath.Join(dir, TrajectoriesDir, "leap_year", "agent", "seed-1.jsonl"), []byte("{}\n"), 0o644) // edited
	os.Remove(filepath.Join(dir, TrajectoriesDir, "leap_year", "agent", "seed-2.jsonl"))                           // gone
	os.Remove(filepath.Join(dir, TrajectoriesDir, "leap_year", "agent", "seed-3.jsonl"))                           // gone, a failure
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []scanned
	if _, err := f.Scan(func(l *Line) error { got = append(got, snapshot(l)); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		v       Verdict
		missing bool
	}{
		{Verdict{StatusPassed, FlawNone}, false},
		{Verdict{StatusInconsistent, FlawTrajectoryEdited}, false},
		{Verdict{StatusInconsistent, FlawTrajectoryMissing}, true},
		{Verdict{StatusFailed, FlawNone}, true},
	}
	for i, w := range want {
		if got[i].Verdict != w.v || got[i].TrajectoryMissing != w.missing {
			t.Errorf("seed %d: %+v missing %v, want %+v missing %v", i, got[i].Verdict, got[i].TrajectoryMissing, w.v, w.missing)
		}
	}
}

func TestParseTrajectoryName(t *testing.T) {
	for name, want := range map[string]seedRepeat{"seed-3.jsonl": {3, 0}, "seed-3-r2.jsonl": {3, 2}, "seed--1-r1.jsonl": {-1, 1}, "seed-0.jsonl": {0, 0}} {
		if s, r, ok := ParseTrajectoryName(name); !ok || (seedRepeat{s, r}) != want {
			t.Errorf("%s: %d %d %v", name, s, r, ok)
		}
	}
	for _, name := range []string{"seed-01.jsonl", "seed-3-r0.jsonl", "seed-3.json", "seed-.jsonl", "x-3.jsonl", "seed-3-r.jsonl", "3.jsonl", "3-r1.jsonl"} {
		if _, _, ok := ParseTrajectoryName(name); ok {
			t.Errorf("%s read as a trajectory", name)
		}
	}
}

// TestIdentity: a run has the uid it was created with, kept as it is read;
// an old folder without one gets one from its run.json bytes: the same for
// a copy, another for another run of the same name.
func TestIdentity(t *testing.T) {
	base := t.TempDir()
	write := func(name string, body []byte) string {
		dir := filepath.Join(base, name, "run")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, RunFile), body, 0o644)
		return dir
	}
	old := validRunJSON(t)
	other := withField(t, old, "started", `"2026-11-30T08:00:00Z"`)
	uids := map[string]string{}
	for name, body := range map[string][]byte{"a": old, "copy": old, "b": other, "new": withField(t, old, "uid", `"0123456789abcdef0123456789abcdef"`)} {
		d, err := Read(write(name, body))
		if err != nil {
			t.Fatal(err)
		}
		uids[name] = d.UID
	}
	if uids["a"] != uids["copy"] || uids["a"] == uids["b"] || !strings.HasPrefix(uids["a"], derivedUIDPrefix) {
		t.Errorf("derived identities: %v", uids)
	}
	if uids["new"] != "0123456789abcdef0123456789abcdef" {
		t.Errorf("recorded identity read as %q", uids["new"])
	}
	if a, b := NewUID(), NewUID(); a == b || len(a) != 32 {
		t.Errorf("NewUID gave %q and %q", a, b)
	}
}

// sha256Hex is the hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
