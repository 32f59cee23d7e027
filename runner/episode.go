package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
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

// Config is what every episode of a run shares: the run's settings
// (record.RunSettings: sampling, budgets, posture, the episode's time
// limit, the workspace limit; a zero EpisodeTimeoutMS is none) and the
// clients that run them.
type Config struct {
	RunID  string
	Model  model.Chatter // nil is fine for the oracle track
	Host   string        // the server Model talks to, recorded on the episode
	Keep   bool          // keep workspaces after grading
	Tracks []track.Track // the registry (Tracks()), or fakes in tests
	record.RunSettings
	// WorkflowClient is the client of the setting WorkflowModel, the model
	// the hybrid's run_workflow asks; nil asks Model.
	WorkflowClient model.Chatter
}

// ModelOptions are the options every request of an episode with seed
// sends, as the settings s say.
func ModelOptions(s record.RunSettings, seed int) model.Options {
	return model.Options{Seed: seed, Temperature: s.Temperature, NumCtx: s.NumCtx, TopP: s.TopP, Think: s.Think, MaxReplyTokens: s.MaxTokens}
}

// episode runs one job: a fresh workspace, the track, grading with pristine
// tests, and an end event on traj. The episode it returns always stands
// for the job: a harness or model error is recorded in it with exit reason
// error and its ErrorKind, a cancelled ctx with exit reason interrupted,
// and a track that ran past cfg.EpisodeTimeout with exit reason timeout
// (graded, never a pass). It also returns the error that ended the
// episode, if any, for the scheduler to tell a full disk.
//
// An episode whose trajectory could not be written whole (traj.Err) is
// lost to a fault (record.ErrorFault), whatever the track did: it is not
// finished until all of it is on disk.
//
// TestMS counts every test subprocess of the episode, grading and the
// first run that explain may make for the causes included;
// ModelMS the time it waited for the model, as the client measured it,
// and ServerMS the server's own account of it.
// With cfg.Keep the end event's Path is the kept workspace. When traj can
// tell the digest of what it wrote (SHA256, as *record.Trajectory can), the
// episode records it after the end event.
func episode(ctx context.Context, cfg Config, job Job, traj Trajectory) (record.Episode, error) {
	start := time.Now()
	ep := record.Episode{
		Format: record.FormatVersion, Run: cfg.RunID,
		Task: job.Task.Name, Track: job.Track, Model: job.Model, Variant: job.Variant, Host: cfg.Host, Seed: job.Seed, Repeat: job.Repeat,
		FailedTests: []string{}, ToolCalls: []string{}, Steps: []string{},
	}
	kept := &keeper{Trajectory: traj}
	counted := &tally{Trajectory: kept}
	trackCtx, cancel := episodeContext(ctx, cfg.EpisodeTimeout())
	defer cancel()
	var calls *meter
	if cfg.Model != nil {
		calls = &meter{Chatter: cfg.Model}
		cfg.Model = calls
	}
	out, testTime, left, graded := runTrack(trackCtx, cfg, job, counted, &ep)
	settle(&ep, exitReason(ctx, trackCtx, out), out.Err, cfg.EpisodeTimeout(), job.Task.Timeout)
	retries, cut := counted.counts()
	ep.Retries, ep.CutReplies = retries+errorRetries(out.Err), cut
	ep.Turns, ep.ModelCalls = out.Turns, out.ModelCalls
	ep.ToolCalls = append(ep.ToolCalls, out.ToolCalls...)
	ep.Steps = append(ep.Steps, out.Steps...)
	ep.PromptTokens, ep.CompletionTokens = out.Usage.PromptTokens, out.Usage.CompletionTokens
	ep.EstPromptTokens, ep.EstCompletionTokens = out.Usage.EstPromptTokens, out.Usage.EstCompletionTokens
	ep.WorkflowCalls, ep.WorkflowTokens = out.WorkflowCalls, out.WorkflowUsage.Total()
	ep.WorkflowEstTokens = out.WorkflowUsage.EstPromptTokens + out.WorkflowUsage.EstCompletionTokens
	if calls != nil {
		ep.ModelMS, ep.ServerMS = calls.times()
	}
	kept.Record(record.Event{Kind: record.EventEnd, Exit: ep.ExitReason, Error: ep.Error, Path: left,
		TestsPassed: ep.TestsPassed, TestsTotal: ep.TestsTotal})
	if err := traj.Err(); err != nil {
		out.Err = loseToFault(&ep, "writing the trajectory", err)
	}
	testTime += explain(ctx, &ep, job.Task, kept.events, graded)
	ep.TestMS = testTime.Milliseconds()
	if d, ok := traj.(interface{ SHA256() string }); ok {
		ep.TrajectorySHA256 = d.SHA256()
	}
	ep.WallMS = time.Since(start).Milliseconds()
	return ep, out.Err
}

// loseToFault makes ep lost to a fault of the machine met while doing
// what (writing its trajectory, say): an episode is finished only when all
// of it is on disk. It returns the fault.
func loseToFault(ep *record.Episode, what string, err error) error {
	f := &Fault{Err: fmt.Errorf("%s: %w", what, err)}
	ep.ExitReason, ep.ErrorKind, ep.Error = record.ExitError, record.ErrorFault, f.Error()
	return f
}

// settle records how the episode ended: its exit reason, its error and,
// for exit error, whose failure it was. A timed-out episode never passes,
// and neither does one whose grading timed out; both say so in Error.
func settle(ep *record.Episode, exit record.ExitReason, err error, limit, gradeLimit time.Duration) {
	ep.ExitReason = exit
	if err != nil {
		ep.Error = err.Error()
	}
	if ep.GradingTimedOut && ep.Error == "" {
		ep.Error = fmt.Sprintf("grading timed out after %s: the tests did not finish, so the episode cannot pass", gradeLimit)
	}
	switch exit {
	case record.ExitError:
		ep.ErrorKind = errorKind(err)
	case record.ExitTimeout:
		ep.Passed = false
		ep.Error = fmt.Sprintf("the episode ran past its limit of %s (--episode-timeout)", limit)
	}
}

// episodeContext is ctx with the episode's time limit, when there is one.
func episodeContext(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, limit)
}

// runTrack makes the workspace, runs the track and grades the result into
// ep. It returns the track's outcome, the time spent in test runs, the
// workspace's path when it is left behind (with cfg.Keep, or when removing
// it failed) and grading's normalised test output, which the episode's
// causes are derived from. The trajectory does not record it: its order of
// tests and the sealed test files' line numbers differ from run to run, so
// it would make twins differ. A workspace that cannot be made or removed
// is a Fault in the outcome's Err.
func runTrack(ctx context.Context, cfg Config, job Job, traj Trajectory, ep *record.Episode) (out track.Outcome, testTime time.Duration, kept, graded string) {
	i := slices.IndexFunc(cfg.Tracks, func(t track.Track) bool { return t.Name == job.Track })
	if i < 0 {
		return track.Outcome{Err: fmt.Errorf("unknown track %q", job.Track)}, 0, "", ""
	}
	settings, err := cfg.RunSettings.WithVariant(job.Variant) // the episode runs with its variant's values
	if err != nil {
		return track.Outcome{Err: err}, 0, "", ""
	}
	cfg.RunSettings = settings
	ws, err := newWorkspace(job.Task)
	if err != nil {
		return track.Outcome{Err: &Fault{Err: fmt.Errorf("making the workspace: %w", err)}}, 0, "", ""
	}
	if cfg.Keep {
		kept = ws.Dir
		ws.Keep()
	} else {
		defer func() {
			if err := removeWorkspace(ws); err != nil {
				kept = ws.Dir // what could not be removed is named in the end event
				if out.Err == nil {
					// Left behind, it would fill the disk: the episode is lost.
					out.Err = &Fault{Err: fmt.Errorf("removing the workspace %s: %w", ws.Dir, err)}
				}
			}
		}()
	}
	env := &track.Env{
		Task: job.Task, Dir: ws.Dir, Model: cfg.Model, WorkflowClient: cfg.WorkflowClient,
		Options: ModelOptions(cfg.RunSettings, job.Seed), RunSettings: cfg.RunSettings, Rec: traj,
	}
	tr := cfg.Tracks[i]
	if tr.UsesPosture {
		p := decidePosture(cfg.Posture, ws.Dir)
		env.Guidance, env.Snapshot, ep.Posture = p.Guidance, p.Snapshot, p.Label
	}
	out = safeRun(ctx, tr.Run, env)
	// Grade even after a cancel: the workspace is still there and a short
	// test run turns an interrupted episode into a complete record. The
	// episode's time limit still holds.
	gctx, stopGrading := gradingContext(ctx)
	g, err := gradeEpisode(gctx, cfg, job.Task, ws.Dir)
	stopGrading()
	testTime = env.TestTime() + g.Result.Duration
	if err != nil {
		if out.Err == nil {
			out.Err = fmt.Errorf("grading: %w", err)
		}
		return out, testTime, kept, ""
	}
	ep.Passed, ep.TestsPassed, ep.TestsTotal = g.Passed, g.TestsPassed, g.TestsTotal
	ep.FailedTests = append(ep.FailedTests, g.Failed...)
	ep.TestsTampered = g.Tampered
	for _, r := range g.Reasons {
		ep.TamperReasons = append(ep.TamperReasons, record.TamperReason{Code: r.Code, Detail: r.Detail})
	}
	if g.Result.TimedOut {
		ep.GradingTimedOut, ep.Passed = true, false
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && out.Err == nil {
			out.Exit = record.ExitTimeout // cut by the episode's limit: its code was too slow
		}
	}
	if g.Refused != "" {
		ep.Error = g.Refused
	}
	ep.Sandbox = &record.Sandbox{FS: g.Result.Sandbox.FS, Net: g.Result.Sandbox.Net, PID: g.Result.Sandbox.PID}
	return out, testTime, kept, g.Result.Normalized
}

// gradingContext is ctx without its cancellation but with its deadline
// (the episode's limit), for grading.
func gradingContext(ctx context.Context) (context.Context, context.CancelFunc) {
	g := context.WithoutCancel(ctx)
	if d, ok := ctx.Deadline(); ok {
		return context.WithDeadline(g, d)
	}
	return context.WithCancel(g)
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

// exitReason is the track's own exit reason, except that a stop after the
// run's ctx was cancelled is an interrupt, a stop after the episode's own
// trackCtx ran out is a timeout, and an error or a missing reason is an
// error.
func exitReason(ctx, trackCtx context.Context, out track.Outcome) record.ExitReason {
	failed := out.Err != nil || out.Exit == "" || out.Exit == record.ExitError
	stopped := failed || out.Exit == record.ExitInterrupted
	switch {
	case stopped && ctx.Err() != nil:
		return record.ExitInterrupted
	case stopped && trackCtx.Err() != nil:
		return record.ExitTimeout
	case out.Exit == record.ExitInterrupted:
		return record.ExitInterrupted
	case failed:
		return record.ExitError
	}
	return out.Exit
}
