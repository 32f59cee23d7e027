package detect

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fakeLone stands in for the parse_date repo/ files (the real ones live in
// the tasks package; the CLI's golden test replays those).
var fakeLone = fstest.MapFS{
	"README.md":          {Data: []byte("# parse_date\n")},
	"dateparse.py":       {Data: []byte("def parse(s):\n    return s\n")},
	"test_dateparse.py":  {Data: []byte("import unittest\n")},
	"fixtures/dates.txt": {Data: []byte("2024-03-05\n")},
}

func replayFake(t *testing.T) []CaseResult {
	t.Helper()
	newEnv(t)
	got, err := Replay(fakeLone)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestReplayMatchesExpected(t *testing.T) {
	got := replayFake(t)
	want, err := Expected()
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 9 || len(got) != 9 {
		t.Fatalf("%d expected cases, %d replayed; want 9 each", len(want), len(got))
	}
	for _, d := range Check(got, want) {
		t.Error(d)
	}
}

func TestReplayGolden(t *testing.T) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(replayFake(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "replay.golden.json", []byte(b.String()))
}

func TestReplayRemovesTempDirs(t *testing.T) {
	e := newEnv(t)
	if _, err := Replay(fakeLone); err != nil {
		t.Fatal(err)
	}
	left, err := os.ReadDir(e.tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("the replay left %d entries in TMPDIR", len(left))
	}
}

func TestReplayRefusesATempDirInsideAProject(t *testing.T) {
	e := newEnv(t)
	e.make("tmp/inner/", "Makefile")
	t.Setenv("TMPDIR", e.path("tmp/inner"))
	_, err := Replay(fakeLone)
	if err == nil || !strings.Contains(err.Error(), "set TMPDIR") {
		t.Fatalf("error %v; want one that says to set TMPDIR", err)
	}
}

func TestCheckReportsEachDifferingCase(t *testing.T) {
	got := replayFake(t)
	want, _ := Expected()
	want[5].Profile = "coding"                       // case 6
	want[1].SnapshotLines[1] = "- Project: setup.py" // case 2
	want = want[:8]                                  // case 9 missing from the table
	diffs := Check(got, want)
	var text []string
	for _, d := range diffs {
		text = append(text, d.String())
	}
	all := strings.Join(text, "\n")
	for _, w := range []string{
		"case 2 (in place, requirements.txt three levels up):\n  snapshot: no line \"- Project: setup.py\"",
		"case 6 (notes.md only, after git init):\n  profile: got \"general\", want \"coding\"",
		"case 9 (lone copy plus AGENTS.md, mode off):\n  not in the expected table",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("diff lacks %q:\n%s", w, all)
		}
	}
	if len(diffs) != 3 {
		t.Errorf("%d diffs, want 3:\n%s", len(diffs), all)
	}
}

func TestParseExpectationsErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"case": 1}`, "bad.json: not an expected table"},
		{`[{"case": 1, "colour": "red"}]`, "unknown field \"colour\""},
		{`[{"case": 1}, {"case": 1}]`, "bad.json: entry 2: case must be a positive number used once, got 1"},
	} {
		_, err := ParseExpectations([]byte(tc.data), "bad.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.data, err, tc.want)
		}
	}
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\ngot:\n%s", path, got)
	}
}
