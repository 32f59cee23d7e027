package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"bench/record"
)

// TestReplayRunSaysHowItCompared writes a replay run of a recording of
// five episodes, one of which the recording lost: of the four replayed,
// two identical, one diverged and went on, one stopped. The text, the
// Markdown and the JSON say so, counted by hand here, and the lost one
// does not make the run incomplete.
func TestReplayRunSaysHowItCompared(t *testing.T) {
	run := record.Run{ID: "replayed", Tasks: []record.TaskRef{{Name: "a", Checksum: "x"}, {Name: "b", Checksum: "y"}, {Name: "c", Checksum: "z"}},
		Tracks: []string{"workflow"}, Seeds: []int{1, 2}, RunSettings: record.RunSettings{Parallel: 1},
		ReplayOf: &record.ReplayOf{ID: "lesson", UID: "u1", Dir: "results/lesson", Skipped: []record.ReplaySkip{{Key: "c/workflow/seed-2", Reason: "lost"}}}}
	step := &record.Divergence{Seq: 3, FreshSeq: 3, Kind: record.EventTestRun, Fields: "tests_total", Want: `"6"`, Got: `"7"`}
	stop := &record.Divergence{Seq: 5, FreshSeq: 5, Kind: record.EventRequest, Fields: "messages", Stop: "the result of run_tests changed"}
	var eps []record.Episode
	for _, c := range []struct {
		task   string
		seed   int
		replay record.Replay
		exit   record.ExitReason
	}{
		{"a", 1, record.Replay{Identical: true}, record.ExitDone},
		{"a", 2, record.Replay{Identical: true}, record.ExitDone},
		{"b", 1, record.Replay{Differences: 2, First: step}, record.ExitDone},
		{"b", 2, record.Replay{Differences: 3, First: step, Stopped: stop}, record.ExitDiverged},
		{"c", 1, record.Replay{Identical: true}, record.ExitDone},
	} {
		ep := episode(c.task, "workflow", c.seed, 0, false, 10)
		ep.ExitReason, ep.Replay = c.exit, &c.replay
		eps = append(eps, ep)
	}
	rep := readWritten(t, run, eps...).Report()
	want := "replay of lesson (results/lesson): 5 episodes, 3 identical, 2 diverged (1 stopped), 1 skipped"
	for name, write := range map[string]func(*bytes.Buffer, *Report) error{
		"text":     func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) },
		"markdown": func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) },
	} {
		var b bytes.Buffer
		if err := write(&b, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s lacks %q:\n%s", name, want, b.String())
		}
		if strings.Contains(b.String(), "incomplete:") {
			t.Errorf("%s says the replay is incomplete for the episode the recording lost:\n%s", name, b.String())
		}
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			NotRun int            `json:"not_run"`
			Replay *ReplaySummary `json:"replay"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Runs[0].Replay
	if got == nil || *got != (ReplaySummary{ID: "lesson", Dir: "results/lesson", Episodes: 5, Identical: 3, Diverged: 2, Stopped: 1, Skipped: 1}) || doc.Runs[0].NotRun != 0 {
		t.Fatalf("json runs[0]: replay %+v, not_run %d", got, doc.Runs[0].NotRun)
	}
}

// TestOrdinaryRunSaysNoReplay: a run that is not a replay has no replay
// line and no replay field.
func TestOrdinaryRunSaysNoReplay(t *testing.T) {
	rep := FromData([]record.Data{{Dir: "r", Run: record.Run{ID: "r", Tracks: []string{"workflow"}, Seeds: []int{1}, Tasks: []record.TaskRef{{Name: "a"}}},
		Episodes: []record.Episode{episode("a", "workflow", 1, 0, false, 1)}}}).Report()
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "replay of") || rep.Runs[0].Replay != nil {
		t.Fatalf("an ordinary run says replay:\n%s", b.String())
	}
}
