package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
)

// rowOf returns the row of task and track, failing the test without one.
func rowOf(t *testing.T, rep *Report, task, track string) Row {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Task == task && r.Track == track {
			return r
		}
	}
	t.Fatalf("no row %s/%s in %+v", task, track, rep.Rows)
	return Row{}
}

// footnoteWith returns the text of the footnote containing s, or "".
func footnoteWith(rep *Report, s string) string {
	for _, f := range rep.Footnotes {
		if strings.Contains(f.Text, s) {
			return f.Text
		}
	}
	return ""
}

// TestMcNemarPairsOnlyWithinOneRun: merged runs holding one track each give
// no pair (agent seed 2 of one run is not workflow seed 2 of another), and
// the report says so.
func TestMcNemarPairsOnlyWithinOneRun(t *testing.T) {
	var agent, workflow []record.Episode
	for s := 1; s <= 4; s++ {
		agent = append(agent, episode("t", "agent", s, 0, true, 400))
		workflow = append(workflow, episode("t", "workflow", s, 0, false, 100))
	}
	rep := FromData([]record.Data{
		{Run: record.Run{ID: "a", Model: "m"}, Episodes: agent},
		{Run: record.Run{ID: "w", Model: "m", RunSettings: record.RunSettings{Temperature: 0.5}}, Episodes: workflow},
	}).Report()
	if len(rep.McNemar) != 1 || rep.McNemar[0].Pairs != 0 {
		t.Fatalf("McNemar = %+v, want one test with no pairs", rep.McNemar)
	}
	if footnoteWith(rep, "no pair") == "" {
		t.Errorf("no footnote says there is no pair: %+v", rep.Footnotes)
	}
	var buf bytes.Buffer
	WriteText(&buf, rep)
	if !strings.Contains(buf.String(), "no pair") {
		t.Errorf("the pairs table does not say there is no pair:\n%s", buf.String())
	}
	// Within one run the same episodes pair: 4 pairs, agent passed alone in each.
	one := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: append(append([]record.Episode{}, agent...), workflow...)}}).Report()
	if m := one.McNemar[0]; m.Pairs != 4 || m.OnlyA != 4 || m.P != 0.125 {
		t.Errorf("one run: McNemar = %+v, want 4 pairs, only agent passed in 4, p = 2/16", m)
	}
}

// TestRunMergedWithItselfCountsEachEpisodeOnce: `bench report D D` (or D and
// a copy: the same run id) counts each episode once, with a footnote.
func TestRunMergedWithItselfCountsEachEpisodeOnce(t *testing.T) {
	d := record.Data{Dir: "D", Run: record.Run{ID: "d"}, Episodes: []record.Episode{
		episode("t", "agent", 1, 0, true, 10), episode("t", "agent", 2, 0, false, 10),
	}}
	copied := d
	copied.Dir = "D-copy"
	copied.Episodes = append(append([]record.Episode{}, d.Episodes...), episode("t", "agent", 3, 0, true, 10))
	rep := FromData([]record.Data{d, copied}).Report()
	if r := rowOf(t, rep, "t", "agent"); r.N != 3 || r.Passed != 2 {
		t.Errorf("row = %d/%d, want 2/3 (seeds 1, 2 once, seed 3 of the copy)", r.Passed, r.N)
	}
	if len(rep.Twins) != 0 {
		t.Errorf("an episode counted twice became its own twin: %+v", rep.Twins)
	}
	if note := footnoteWith(rep, "counted once"); !strings.Contains(note, "d") || !strings.Contains(note, "D-copy") {
		t.Errorf("footnote = %q, want one naming run d, its folders, and that each episode is counted once", note)
	}
	ds := compareAt(t, FromData([]record.Data{d, d}), FromData([]record.Data{d}), Alpha)
	if len(ds.Deltas) != 1 || ds.Deltas[0].OldN != 2 {
		t.Errorf("compare of D D against D: %+v, want old n = 2", ds.Deltas)
	}
}

// TestPassedIsDerived: a line whose passed disagrees with its test counts
// (or that has no tests), or whose grading timed out, is not a pass; each
// is said in a footnote.
func TestPassedIsDerived(t *testing.T) {
	good := episode("t", "agent", 1, 0, true, 10)
	good.TestsPassed, good.TestsTotal = 5, 5
	forged := episode("t", "agent", 2, 0, true, 10)
	forged.TestsPassed, forged.TestsTotal = 3, 5
	noTests := episode("t", "agent", 3, 0, true, 10)
	noTests.TestsPassed, noTests.TestsTotal = 0, 0
	timedOut := episode("t", "agent", 4, 0, true, 10)
	timedOut.TestsPassed, timedOut.TestsTotal, timedOut.GradingTimedOut = 5, 5, true
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: []record.Episode{good, forged, noTests, timedOut}}}).Report()
	r := rowOf(t, rep, "t", "agent")
	if r.N != 4 || r.Passed != 1 {
		t.Errorf("row = %d/%d, want 1/4: only the consistent line passes", r.Passed, r.N)
	}
	if r.GradingTimeouts != 1 {
		t.Errorf("grading timeouts = %d, want 1", r.GradingTimeouts)
	}
	if note := footnoteWith(rep, "inconsistent"); !strings.Contains(note, "2 episodes") {
		t.Errorf("inconsistent footnote = %q, want one on 2 episodes; all: %+v", note, rep.Footnotes)
	}
	if footnoteWith(rep, "grading timed out") == "" {
		t.Errorf("no footnote on the grading timeout: %+v", rep.Footnotes)
	}
	if tr := rep.Tracks[0]; tr.Passed != 1 {
		t.Errorf("track row passed = %d, want 1", tr.Passed)
	}
}

// TestTrajectoryDigestAndMissingFile: a trajectory edited after the run
// (its SHA-256 differs from the recorded one) is not counted as a pass; a
// missing trajectory file is noticed.
func TestTrajectoryDigestAndMissingFile(t *testing.T) {
	dir := t.TempDir()
	write := func(seed int, text string) string {
		p := filepath.Join(dir, record.TrajectoriesDir, "t", "agent", record.TrajectoryName(seed, 0)+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(text))
		return hex.EncodeToString(sum[:])
	}
	mk := func(seed int) record.Episode {
		e := episode("t", "agent", seed, 0, true, 10)
		e.TestsPassed, e.TestsTotal = 2, 2
		return e
	}
	kept, edited, missing, prefixed := mk(1), mk(2), mk(3), mk(4)
	kept.TrajectorySHA256 = write(1, "{\"kind\":\"end\"}\n")
	prefixed.TrajectorySHA256 = "sha256:" + write(4, "{\"kind\":\"end\"}\n")
	edited.TrajectorySHA256 = write(2, "{\"kind\":\"end\"}\n")
	os.WriteFile(filepath.Join(dir, record.TrajectoriesDir, "t", "agent", "seed-2.jsonl"), []byte("{\"kind\":\"end\",\"exit\":\"forged\"}\n"), 0o644)
	rep := FromData([]record.Data{{Dir: dir, Run: record.Run{ID: "r"}, Episodes: []record.Episode{kept, edited, missing, prefixed}}}).Report()
	if r := rowOf(t, rep, "t", "agent"); r.N != 4 || r.Passed != 3 {
		t.Errorf("row = %d/%d, want 3/4: the edited episode is not a pass", r.Passed, r.N)
	}
	if note := footnoteWith(rep, "edited after the run"); !strings.Contains(note, "seed-2") {
		t.Errorf("edited footnote = %q; all: %+v", note, rep.Footnotes)
	}
	if note := footnoteWith(rep, "missing"); !strings.Contains(note, "seed-3") {
		t.Errorf("missing footnote = %q; all: %+v", note, rep.Footnotes)
	}
}

// TestLostEpisodesNeverEnterRates: infrastructure errors have their own
// column and footnote; retries, cut replies and the timeout exit are shown.
func TestLostEpisodesNeverEnterRates(t *testing.T) {
	var eps []record.Episode
	for s := 1; s <= 2; s++ {
		e := episode("t", "agent", s, 0, true, 10)
		e.TestsPassed, e.TestsTotal, e.Retries, e.CutReplies = 1, 1, 2, 1
		eps = append(eps, e)
	}
	for s := 3; s <= 5; s++ {
		e := episode("t", "agent", s, 0, false, 0)
		e.ExitReason, e.ErrorKind, e.Retries = record.ExitError, record.ErrorUnreachable, 3
		eps = append(eps, e)
	}
	modelErr := episode("t", "agent", 6, 0, false, 5)
	modelErr.ExitReason, modelErr.ErrorKind = record.ExitError, record.ErrorModel
	timeout := episode("t", "agent", 7, 0, false, 5)
	timeout.ExitReason = record.ExitTimeout
	eps = append(eps, modelErr, timeout)
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	r := rowOf(t, rep, "t", "agent")
	if r.N != 4 || r.Passed != 2 || r.Lost != 3 || r.Rate == nil || *r.Rate != 0.5 {
		t.Errorf("row n=%d passed=%d lost=%d rate=%v, want n=4 passed=2 lost=3 rate=0.5", r.N, r.Passed, r.Lost, r.Rate)
	}
	want := []Count{{"done", 2}, {"timeout", 1}, {"error", 1}}
	if len(r.Exits) != 3 || r.Exits[0] != want[0] || r.Exits[1] != want[1] || r.Exits[2] != want[2] {
		t.Errorf("exits = %+v, want %+v (lost episodes are not exits)", r.Exits, want)
	}
	if tr := rep.Tracks[0]; tr.Lost != 3 || tr.Retries != 13 || tr.CutReplies != 2 || tr.N != 4 {
		t.Errorf("track row = %+v, want n=4 lost=3 retries=13 cut replies=2", tr)
	}
	if footnoteWith(rep, "3 episodes lost to server errors, not counted") == "" {
		t.Errorf("no footnote on lost episodes: %+v", rep.Footnotes)
	}
	var buf bytes.Buffer
	WriteText(&buf, rep)
	for _, want := range []string{"lost", "retries", "cut replies", "timeout 1"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestAllLostCellPrintsNoRate: a cell whose every episode was lost has n = 0
// and no rate, and no format prints NaN.
func TestAllLostCellPrintsNoRate(t *testing.T) {
	e := episode("t", "agent", 1, 0, false, 0)
	e.ExitReason, e.ErrorKind = record.ExitError, record.ErrorServer
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: []record.Episode{e, episode("t", "workflow", 1, 0, true, 100)}}}).Report()
	if len(rep.Ratios) != 0 || len(rep.McNemar) != 0 {
		t.Errorf("a cell of lost episodes only is compared: ratios %+v, McNemar %+v", rep.Ratios, rep.McNemar)
	}
	if r := rowOf(t, rep, "t", "agent"); r.N != 0 || r.Lost != 1 {
		t.Errorf("row = %+v, want n = 0, lost = 1", r)
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text": func(b *bytes.Buffer) error { return WriteText(b, rep) },
		"csv":  func(b *bytes.Buffer) error { return WriteCSV(b, rep) },
		"json": func(b *bytes.Buffer) error { return WriteJSON(b, rep) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(buf.String(), "NaN") {
			t.Errorf("%s prints NaN:\n%s", name, buf.String())
		}
	}
}
