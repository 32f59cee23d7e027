package report

import (
	"testing"

	"bench/record"
)

func TestTrackRows(t *testing.T) {
	ep := func(task, track string, passed bool, tokens int) record.Episode {
		e := record.Episode{Task: task, Track: track, Passed: passed, TestsTotal: 1, PromptTokens: tokens, EstCompletionTokens: 1, ExitReason: record.ExitDone}
		if passed {
			e.TestsPassed = 1
		}
		return e
	}
	in := record.Data{Run: record.Run{ID: "r"}, Episodes: []record.Episode{
		ep("a", "agent", true, 10), ep("a", "agent", false, 20), // 1 of 2: not more than half, not solved
		ep("b", "agent", true, 30),
		ep("a", "workflow", true, 1), ep("a", "workflow", true, 2), ep("a", "workflow", false, 3),
	}}
	got := FromData([]record.Data{in}).Report().Tracks
	want := []TrackRow{
		{Track: "workflow", Tasks: 1, TasksSolved: 1, N: 3, Passed: 2, Tokens: 6, EstTokens: 3},
		{Track: "agent", Tasks: 2, TasksSolved: 1, N: 3, Passed: 2, Tokens: 60, EstTokens: 3},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d track rows, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Track != w.Track || g.Tasks != w.Tasks || g.TasksSolved != w.TasksSolved || g.N != w.N || g.Passed != w.Passed || g.Tokens != w.Tokens || g.EstTokens != w.EstTokens {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
		if g.Wilson == nil || g.Rate == nil || g.Wilson.Low <= 0 || g.Wilson.High >= 1 || *g.Rate != sig6(2.0/3) {
			t.Errorf("row %d rate %v %v", i, g.Rate, g.Wilson)
		}
	}
}
