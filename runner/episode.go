package runner

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"bench/model"
	"bench/record"
	"bench/track"
)

// Trajectory is where one episode's events go: record.Recorder plus the
// write error kept by the recorder and a Close.
type Trajectory interface {
	record.Recorder
	Err() error
	Close() error
}

// Config is what every episode of a run shares.
type Config struct {
	RunID     string
	Model     model.Chatter // nil is fine for the oracle track
	Options   model.Options // Seed is set per episode
	MaxTurns  int
	MaxTokens int
	Tries     int
	Posture   string // off, auto or on
	Keep      bool   // keep workspaces after grading
	Tracks    map[string]track.Func
}

// Episode runs one job: a fresh workspace, the track, grading with pristine
// tests, and an end event on traj. It never fails: a harness or model error
// is recorded in the episode with exit reason error, and a cancelled ctx
// with exit reason interrupted.
//
// TestMS counts every test subprocess of the episode, grading included.
// With cfg.Keep the end event's Path is the kept workspace.
func Episode(ctx context.Context, cfg Config, job Job, traj Trajectory) record.Episode {
	start := time.Now()
	ep := record.Episode{
		Format: record.FormatVersion, Run: cfg.RunID,
		Task: job.Task.Name, Track: job.Track, Seed: job.Seed, Repeat: job.Repeat,
		Posture: PostureGeneral, FailedTests: []string{}, ToolCalls: []string{}, Steps: []string{},
	}
	out, testTime, kept := runTrack(ctx, cfg, job, traj, &ep)
	ep.ExitReason = exitReason(ctx, out)
	if out.Err != nil {
		ep.Error = out.Err.Error()
	}
	ep.Turns, ep.ModelCalls = out.Turns, out.ModelCalls
	ep.ToolCalls = append(ep.ToolCalls, out.ToolCalls...)
	ep.Steps = append(ep.Steps, out.Steps...)
	ep.PromptTokens, ep.CompletionTokens = out.Usage.PromptTokens, out.Usage.CompletionTokens
	ep.EstPromptTokens, ep.EstCompletionTokens = out.Usage.EstPromptTokens, out.Usage.EstCompletionTokens
	ep.ModelMS = out.ModelTime.Milliseconds()
	ep.TestMS = testTime.Milliseconds()
	traj.Record(record.Event{Kind: record.EventEnd, Exit: ep.ExitReason, Error: ep.Error, Path: kept,
		TestsPassed: ep.TestsPassed, TestsTotal: ep.TestsTotal})
	if err := traj.Err(); err != nil && ep.Error == "" {
		ep.Error = "writing the trajectory: " + err.Error()
	}
	ep.WallMS = time.Since(start).Milliseconds()
	return ep
}

// runTrack makes the workspace, runs the track and grades the result into
// ep. It returns the track's outcome, the time spent in test runs and the
// workspace's path when it is left behind: with cfg.Keep, or when removing
// it failed.
func runTrack(ctx context.Context, cfg Config, job Job, traj Trajectory, ep *record.Episode) (out track.Outcome, testTime time.Duration, kept string) {
	fn, ok := cfg.Tracks[job.Track]
	if !ok {
		return track.Outcome{Err: fmt.Errorf("unknown track %q", job.Track)}, 0, ""
	}
	ws, err := NewWorkspace(job.Task)
	if err != nil {
		return track.Outcome{Err: fmt.Errorf("making the workspace: %w", err)}, 0, ""
	}
	if cfg.Keep {
		kept = ws.Dir
	} else {
		defer func() {
			if ws.Remove() != nil {
				kept = ws.Dir // what could not be removed is named in the end event
			}
		}()
	}
	opts := cfg.Options
	opts.Seed = job.Seed
	env := &track.Env{
		Task: job.Task, Dir: ws.Dir, Model: cfg.Model, Options: opts,
		MaxTurns: cfg.MaxTurns, MaxTokens: cfg.MaxTokens, Tries: cfg.Tries, Rec: traj,
	}
	if UsesPosture(job.Track) {
		p := decidePosture(cfg.Posture, ws.Dir)
		env.Guidance, env.Snapshot, ep.Posture = p.Guidance, p.Snapshot, p.Label
	}
	out = safeRun(ctx, fn, env)
	// Grade even after a cancel: the workspace is still there and a short
	// test run turns an interrupted episode into a complete record.
	g, err := Grade(context.WithoutCancel(ctx), job.Task, ws.Dir)
	testTime = env.TestTime() + g.Result.Duration
	if err != nil {
		if out.Err == nil {
			out.Err = fmt.Errorf("grading: %w", err)
		}
		return out, testTime, kept
	}
	ep.Passed, ep.TestsPassed, ep.TestsTotal = g.Passed, g.TestsPassed, g.TestsTotal
	ep.FailedTests = append(ep.FailedTests, g.Failed...)
	ep.TestsTampered = g.Tampered
	ep.Sandbox = &g.Result.Sandbox
	return out, testTime, kept
}

// safeRun runs a track and turns a panic into an error outcome, so that
// one broken episode cannot stop the run.
func safeRun(ctx context.Context, fn track.Func, env *track.Env) (out track.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = track.Outcome{Exit: record.ExitError, Err: fmt.Errorf("track panicked: %v\n%s", r, debug.Stack())}
		}
	}()
	return fn(ctx, env)
}

// exitReason is the track's own exit reason, except that a failure after a
// cancel is an interrupt, and an error or a missing reason is an error.
func exitReason(ctx context.Context, out track.Outcome) string {
	failed := out.Err != nil || out.Exit == "" || out.Exit == record.ExitError
	switch {
	case out.Exit == record.ExitInterrupted, failed && ctx.Err() != nil:
		return record.ExitInterrupted
	case failed:
		return record.ExitError
	}
	return out.Exit
}
