package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
	"bench/record/recordtest"
)

// episode makes a test episode with one test, passed or failed.
func episode(task, track string, seed, repeat int, passed bool, tokens int, steps ...string) record.Episode {
	ep := record.Episode{Task: task, Track: track, Seed: seed, Repeat: repeat, Passed: passed,
		TestsTotal: 1, ExitReason: record.ExitDone, PromptTokens: tokens, Steps: steps}
	if passed {
		ep.TestsPassed = 1
	}
	return ep
}

func TestMergedRunsDigestFootnoteAndTwinsAcrossRuns(t *testing.T) {
	runA := record.Run{ID: "a", Model: "qwen3:8b", ModelDigest: "sha256:aaa", RunSettings: record.RunSettings{Temperature: 0.7}}
	runB := record.Run{ID: "b", Model: "qwen3:8b", ModelDigest: "sha256:bbb", RunSettings: record.RunSettings{Temperature: 0.7}}
	runC := runA
	runC.ID = "c"
	inputs := []record.Data{
		{Run: runA, Episodes: []record.Episode{episode("t", "agent", 1, 0, true, 100, "x", "y")}},
		{Run: runB, Episodes: []record.Episode{episode("t", "agent", 1, 0, true, 100, "x", "y")}},
		{Run: runC, Episodes: []record.Episode{episode("t", "agent", 1, 0, false, 100, "x", "z")}},
	}
	rep := FromData(inputs).Report()
	if len(rep.Rows) != 1 || rep.Rows[0].N != 3 || rep.Rows[0].Passed != 2 {
		t.Fatalf("rows = %+v, want one row with 2/3", rep.Rows)
	}
	var digestNote bool
	for _, f := range rep.Footnotes {
		digestNote = digestNote || strings.Contains(f.Text, "digest differs") && strings.Contains(f.Text, "sha256:aaa, sha256:bbb")
	}
	if !digestNote {
		t.Errorf("no footnote on the differing digests: %+v", rep.Footnotes)
	}
	// a and c share a configuration (b has another digest): one twin group.
	if len(rep.Twins) != 1 || len(rep.Twins[0].Members) != 2 {
		t.Fatalf("twins = %+v, want one group of runs a and c", rep.Twins)
	}
	m := rep.Twins[0].Members[1]
	if m.Run != "c" || m.Identical || m.DivergeAt != 2 {
		t.Errorf("second twin = %+v, want run c diverging at step 2", m)
	}
}

func TestMcNemarPairsBySeedAndRepeat(t *testing.T) {
	var eps []record.Episode
	// seeds 1..6: workflow fails on 1..5, agent passes on all; seed 7 only
	// has a workflow episode and must not be paired.
	for s := 1; s <= 6; s++ {
		eps = append(eps, episode("t", "workflow", s, 0, s == 6, 100), episode("t", "agent", s, 0, true, 400))
	}
	eps = append(eps, episode("t", "workflow", 7, 0, true, 100))
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	if len(rep.McNemar) != 1 {
		t.Fatalf("McNemar = %+v, want one test", rep.McNemar)
	}
	m := rep.McNemar[0]
	if m.Pairs != 6 || m.OnlyA != 5 || m.OnlyB != 0 || m.BothPass != 1 || m.P != 0.0625 {
		t.Errorf("McNemar = %+v, want 6 pairs, agent alone passing 5, p = 0.0625", m)
	}
	if len(rep.Ratios) != 1 || rep.Ratios[0].Ratio != 4 || rep.Ratios[0].Interval == nil {
		t.Errorf("ratios = %+v, want agent/workflow = 4 with an interval", rep.Ratios)
	}
}

func TestTrackOrder(t *testing.T) {
	var eps []record.Episode
	for _, tr := range []string{"zeta", "oracle", "agent", "alpha", "workflow-retry", "workflow"} {
		eps = append(eps, episode("t", tr, 1, 0, true, 1))
	}
	rep := FromData([]record.Data{{Episodes: eps}}).Report()
	var got []string
	for _, r := range rep.Rows {
		got = append(got, r.Track)
	}
	if want := "workflow workflow-retry agent oracle alpha zeta"; strings.Join(got, " ") != want {
		t.Errorf("track order = %v, want %s", got, want)
	}
}

// TestOracleOnlyRun: a run without model tracks (make demo's) has no
// tokens and no pairs, and still renders in every format.
func TestOracleOnlyRun(t *testing.T) {
	var eps []record.Episode
	for _, task := range []string{"parse_date", "slugify"} {
		eps = append(eps, record.Episode{Task: task, Track: "oracle", Seed: 1, Passed: true, ExitReason: record.ExitDone})
	}
	rep := FromData([]record.Data{{Dir: "demo", Run: record.Run{ID: "demo"}, Episodes: eps}}).Report()
	if len(rep.Ratios) != 0 || len(rep.McNemar) != 0 {
		t.Errorf("oracle-only run has pairs: %+v %+v", rep.Ratios, rep.McNemar)
	}
	for _, write := range []func(*bytes.Buffer, *Report) error{
		func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) },
		func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) },
		func(b *bytes.Buffer, r *Report) error { return WriteCSV(b, r) },
		func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) },
	} {
		var buf bytes.Buffer
		if err := write(&buf, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "slugify") {
			t.Errorf("output lacks the task slugify:\n%.300s", buf.String())
		}
	}
}

func TestEmptyRunSaysSo(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, FromData([]record.Data{{Dir: "d", Run: record.Run{ID: "r"}}}).Report()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "no finished episodes yet") {
		t.Errorf("empty run output:\n%s", buf.String())
	}
}

// readWritten writes run and its episodes, in order, as the recorder does
// into a fresh folder, and reads them back with Read.
func readWritten(t *testing.T, run record.Run, eps ...record.Episode) *Aggregate {
	t.Helper()
	dir := filepath.Join(t.TempDir(), run.ID)
	recordtest.Write(t, dir, run, eps...)
	agg, err := Read([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return agg
}
