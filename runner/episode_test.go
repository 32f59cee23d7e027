package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/detect"
	"bench/oracle"
	"bench/record"
	"bench/tasks"
	"bench/track"
	"bench/track/tracktest"
)

// spy returns a track that calls f and remembers the env it was given.
func spy(f track.Func) (track.Func, *track.Env) {
	var seen track.Env
	return func(ctx context.Context, env *track.Env) track.Outcome {
		seen = *env
		return f(ctx, env)
	}, &seen
}

// runJob runs one episode of the course task name on the track word, seed 7.
func runJob(t *testing.T, cfg Config, name, word string) (record.Episode, *tracktest.MemTrajectory) {
	t.Helper()
	return runJobOn(cfg, task(t, name), word)
}

// runJobOn runs one episode of tk on the track word, seed 7.
func runJobOn(cfg Config, tk tasks.Task, word string) (record.Episode, *tracktest.MemTrajectory) {
	cfg.RunID = "test-run"
	traj := &tracktest.MemTrajectory{}
	ep, _ := episode(context.Background(), cfg, Job{Task: tk, Track: word, Seed: 7, Repeat: 1}, traj)
	return ep, traj
}

// ungraded is the course task name with `true` as its test command: its
// workspace is the task's, and grading it starts no Python, for a test
// about anything but grading.
func ungraded(t *testing.T, name string) tasks.Task {
	tk := task(t, name)
	tk.TestCmd = []string{"true"}
	return tk
}

func TestEpisodeOraclePasses(t *testing.T) {
	fn, env := spy(oracle.Oracle)
	ep, traj := runJob(t, Config{Tracks: []track.Track{{Name: "oracle", Run: fn}}}, "parse_date", "oracle")
	if !ep.Passed || ep.ExitReason != record.ExitDone || ep.Error != "" {
		t.Fatalf("oracle episode: passed %v, exit %q, error %q", ep.Passed, ep.ExitReason, ep.Error)
	}
	if ep.TestsTotal == 0 || ep.TestsPassed != ep.TestsTotal || len(ep.FailedTests) != 0 {
		t.Fatalf("oracle tests %d/%d, failed %q", ep.TestsPassed, ep.TestsTotal, ep.FailedTests)
	}
	if ep.Task != "parse_date" || ep.Track != "oracle" || ep.Seed != 7 || ep.Repeat != 1 || ep.Run != "test-run" || ep.Format != record.FormatVersion {
		t.Fatalf("episode identity wrong: %+v", ep)
	}
	if env.Options.Seed != 7 {
		t.Fatalf("track saw seed %d, want 7", env.Options.Seed)
	}
	if ep.TestMS < 0 || ep.WallMS < ep.TestMS {
		t.Fatalf("wall %d ms < test %d ms", ep.WallMS, ep.TestMS)
	}
	if end := traj.Last(); end.Kind != record.EventEnd || end.Exit != record.ExitDone || end.TestsTotal != 7 || end.TestsPassed != 7 {
		t.Fatalf("last event %+v, want end/done graded 7/7", end)
	}
	if w := traj.Events[0]; w.Kind != record.EventWrite || w.Path != "dateparse.py" || w.Bytes == 0 {
		t.Fatalf("first event %+v, want the oracle's write of dateparse.py with its size", w)
	}
	if _, err := os.Stat(env.Dir); !os.IsNotExist(err) {
		t.Fatalf("workspace %s still there after the episode (err %v)", env.Dir, err)
	}
}

func TestEpisodeKeepsWorkspace(t *testing.T) {
	fn, env := spy(oracle.Oracle)
	ep, traj := runJob(t, Config{Keep: true, Tracks: []track.Track{{Name: "oracle", Run: fn}}}, "leap_year", "oracle")
	t.Cleanup(func() { os.RemoveAll(env.Dir) })
	if end := traj.Last(); end.Path != env.Dir {
		t.Fatalf("end event names %q as the kept workspace, want %q", end.Path, env.Dir)
	}
	if !ep.Passed {
		t.Fatalf("oracle failed: %+v", ep)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "leap.py")); err != nil {
		t.Fatalf("kept workspace lacks leap.py: %v", err)
	}
}

func TestEpisodeGradingDecidesPassed(t *testing.T) {
	// The track claims success without changing anything: grading says no.
	liar := func(ctx context.Context, env *track.Env) track.Outcome {
		return track.Outcome{Exit: record.ExitDone, Turns: 3, ModelCalls: 3, ToolCalls: []string{"run_tests"}}
	}
	ep, _ := runJob(t, Config{Tracks: []track.Track{{Name: "liar", Run: liar}}}, "leap_year", "liar")
	if ep.Passed || ep.ExitReason != record.ExitDone || len(ep.FailedTests) == 0 {
		t.Fatalf("untouched leap_year: passed %v, exit %q, failed %q", ep.Passed, ep.ExitReason, ep.FailedTests)
	}
	if ep.Turns != 3 || ep.ModelCalls != 3 || strings.Join(ep.ToolCalls, ",") != "run_tests" {
		t.Fatalf("outcome not copied: %+v", ep)
	}
}

func TestEpisodeFlagsTamperedTests(t *testing.T) {
	tamper := func(ctx context.Context, env *track.Env) track.Outcome {
		for _, f := range env.Task.TestFiles {
			os.WriteFile(filepath.Join(env.Dir, f), []byte("import unittest\n"), 0o644)
		}
		return track.Outcome{Exit: record.ExitDone}
	}
	ep, _ := runJob(t, Config{Tracks: []track.Track{{Name: "tamper", Run: tamper}}}, "leap_year", "tamper")
	if !ep.TestsTampered || ep.Passed {
		t.Fatalf("tampering track: tampered %v, passed %v", ep.TestsTampered, ep.Passed)
	}
}

func TestEpisodeRecordsErrorsNeverRaises(t *testing.T) {
	cases := []track.Track{
		{Name: "down", Run: func(context.Context, *track.Env) track.Outcome {
			return track.Outcome{Err: errors.New("model server unreachable")}
		}},
		{Name: "panic", Run: func(context.Context, *track.Env) track.Outcome { panic("boom") }},
	}
	for _, c := range cases {
		word := c.Name
		ep, traj := runJob(t, Config{Tracks: cases}, "leap_year", word)
		if ep.ExitReason != record.ExitError || ep.Error == "" || ep.Passed {
			t.Fatalf("%s: exit %q, error %q, passed %v", word, ep.ExitReason, ep.Error, ep.Passed)
		}
		if end := traj.Last(); end.Kind != record.EventEnd || end.Exit != record.ExitError || end.Error == "" {
			t.Fatalf("%s: end event %+v", word, end)
		}
	}
	ep, _ := runJob(t, Config{Tracks: cases}, "leap_year", "nope")
	if ep.ExitReason != record.ExitError || !strings.Contains(ep.Error, `unknown track "nope"`) {
		t.Fatalf("unknown track: exit %q, error %q", ep.ExitReason, ep.Error)
	}
}

func TestEpisodeInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := func(ctx context.Context, env *track.Env) track.Outcome {
		cancel()
		return track.Outcome{Err: ctx.Err()}
	}
	traj := &tracktest.MemTrajectory{}
	ep, _ := episode(ctx, Config{Tracks: []track.Track{{Name: "s", Run: stopped}}}, Job{Task: task(t, "leap_year"), Track: "s", Seed: 1}, traj)
	if ep.ExitReason != record.ExitInterrupted {
		t.Fatalf("exit %q, want interrupted", ep.ExitReason)
	}
	if ep.TestsTotal == 0 {
		t.Fatal("an interrupted episode was not graded")
	}
}

func TestEpisodePosture(t *testing.T) {
	cases := []struct {
		posture, label string
		guidance       bool
	}{
		{"off", detect.ProfileGeneral, false},
		{"auto", detect.ProfileGeneral, false}, // a lone copy in the temp root is a general directory
		{"on", detect.ProfileCoding, true},
	}
	// The posture is decided on parse_date's workspace; grading, which it
	// does not touch, runs `true` (ungraded).
	pd := ungraded(t, "parse_date")
	for _, c := range cases {
		fn, env := spy(oracle.Oracle) // registered as the agent, the one track that takes a posture
		ep, _ := runJobOn(Config{RunSettings: record.RunSettings{Posture: c.posture}, Tracks: []track.Track{{Name: "agent", Run: fn, UsesPosture: true}}}, pd, "agent")
		if ep.Posture != c.label || (env.Guidance == detect.GuidanceFor(env.Snapshot != "")) != c.guidance || (env.Guidance != "") != c.guidance {
			t.Errorf("posture %s: recorded %q, guidance given %v; want %q, %v", c.posture, ep.Posture, env.Guidance != "", c.label, c.guidance)
		}
	}
	// Tracks that take no posture record none, whatever --posture says.
	fn, env := spy(oracle.Oracle)
	ep, _ := runJobOn(Config{RunSettings: record.RunSettings{Posture: "on"}, Tracks: []track.Track{{Name: "oracle", Run: fn}}}, pd, "oracle")
	if ep.Posture != "" || env.Guidance != "" {
		t.Errorf("oracle with --posture on: recorded %q, guidance given %v", ep.Posture, env.Guidance != "")
	}
}
