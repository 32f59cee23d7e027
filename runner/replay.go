package runner

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"bench/record"
	"bench/replay"
	"bench/tasks"
)

// ReplaySpec is what a replay run (bench run --replay) is made of: the
// recording, opened against the current tasks, and what the recording
// does not decide: the new folder, the episodes run at once, the version
// of bench and when it starts.
type ReplaySpec struct {
	Source       *replay.Source
	Dir          string // the new run folder; "" = DefaultDir(Started, "replay-"+the recording's id)
	Parallel     int    // 0 = record.DefaultParallel
	BenchVersion string
	Started      time.Time // zero = now
}

// ReplayRun is a replay ready to execute: its run.json (the recording's
// settings, the current tasks' checksums and what it replays) and its
// folder. Making one creates nothing; Execute writes the folder.
type ReplayRun struct {
	Dir    string
	Run    record.Run
	Source *replay.Source
	Tasks  []tasks.Task // the run's tasks as they are now, in run.json's order
}

// NewReplay checks spec and makes the replay run. Its run.json is the
// recording's (the model, the sampling options, the budgets, the tracks,
// the seeds: the replies answer those), but for what this run is: a new
// id, identity and start, this bench's version, the episodes run at once,
// the current tasks' checksums and prompts digest, and ReplayOf, which
// names the recording and the episodes it could not replay. The sandbox is
// the caller's to record. Nothing is created on disk.
func NewReplay(spec ReplaySpec) (*ReplayRun, error) {
	src := spec.Source
	if src == nil || len(src.Episodes) == 0 {
		return nil, fmt.Errorf("nothing to replay")
	}
	parallel := cmp.Or(spec.Parallel, record.DefaultParallel)
	if err := CheckParallel(parallel); err != nil {
		return nil, err
	}
	ts, err := replayTasks(src)
	if err != nil {
		return nil, err
	}
	refs, err := TaskRefs(ts)
	if err != nil {
		return nil, err
	}
	started := cmp.Or(spec.Started, time.Now()).UTC()
	r := src.Run
	r.Tasks, r.Tracks, r.Seeds = refs, slices.Clone(r.Tracks), slices.Clone(r.Seeds)
	r.UID, r.Started, r.BenchVersion, r.Parallel, r.ParallelPerHost = "", started, spec.BenchVersion, parallel, 0
	r.PromptsSHA256, r.Sandbox = PromptsDigest(r.Tracks), nil
	r.ReplayOf = &record.ReplayOf{ID: src.Run.ID, UID: src.UID, Dir: src.Dir}
	for _, s := range src.Skipped {
		r.ReplayOf.Skipped = append(r.ReplayOf.Skipped, record.ReplaySkip{Key: s.Key, Reason: s.Reason})
	}
	dir := cmp.Or(spec.Dir, DefaultDir(started, "replay-"+src.Run.ID))
	if err := checkOutDir(dir); err != nil {
		return nil, err
	}
	r.ID = filepath.Base(dir)
	return &ReplayRun{Dir: dir, Run: r, Source: src, Tasks: ts}, nil
}

// replayTasks are the current tasks of the recording's run.json, in its
// order (replay.Open found every one).
func replayTasks(src *replay.Source) ([]tasks.Task, error) {
	byName := map[string]tasks.Task{}
	for _, e := range src.Episodes {
		byName[e.Task.Name] = e.Task
	}
	var out []tasks.Task
	for _, ref := range src.Run.Tasks {
		if t, ok := byName[ref.Name]; ok {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the recording in %s names none of its episodes' tasks in its run.json", src.Dir)
	}
	return out, nil
}

// Jobs are the episodes to replay, in the recording's order.
func (r *ReplayRun) Jobs() []Job {
	jobs := make([]Job, len(r.Source.Episodes))
	for i, e := range r.Source.Episodes {
		rec := e.Recorded
		jobs[i] = Job{Task: e.Task, Track: rec.Track, Model: rec.Model, Variant: rec.Variant, Seed: rec.Seed, Repeat: rec.Repeat}
	}
	return jobs
}

// Execute creates the replay's folder and replays every episode on
// run.json's Parallel workers: each with the recording's settings
// (ConfigFrom), its player as the only model client (the hybrid's inner
// call included: no server is contacted), its trajectory watched by the
// player, and Finish run before the episode is appended, so that every
// line carries its Replay. Once ctx is cancelled no further episode
// starts; running ones are recorded as interrupted. A failure to append
// an episode, or an episode lost to a full disk, stops the replay with a
// *StopError.
func (r *ReplayRun) Execute(ctx context.Context, opts ExecOptions) error {
	w, err := create(r.Dir, r.Run)
	if err != nil {
		return err
	}
	cfg := ConfigFrom(r.Run)
	cfg.Keep = opts.Keep
	jobs := r.Jobs()
	var (
		mu      sync.Mutex
		next    int
		stopErr error
		wg      sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stopErr != nil || ctx.Err() != nil || next == len(jobs) {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for range max(1, r.Run.Parallel) {
		wg.Go(func() {
			for {
				i, ok := take()
				if !ok {
					return
				}
				if opts.Start != nil {
					opts.Start(jobs[i])
				}
				ep, err := r.replayOne(ctx, cfg, w, jobs[i], r.Source.Episodes[i].Recorded.Key())
				mu.Lock()
				if err != nil && stopErr == nil {
					stopErr = err
				}
				mu.Unlock()
				if err == nil && opts.Progress != nil {
					opts.Progress(ep)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil && stopErr == nil {
		stopErr = err
	}
	return stopErr
}

// replayOne replays one recorded episode (key) as job j and appends it.
// It returns the episode appended, or why the replay must stop: the
// recorded trajectory no longer reads whole, the episode could not be
// appended, or it met a full disk.
func (r *ReplayRun) replayOne(ctx context.Context, cfg Config, w *record.Writer, j Job, key string) (record.Episode, error) {
	p, err := r.Source.Player(key)
	if err != nil {
		return record.Episode{}, fmt.Errorf("stopped: %w", err)
	}
	cfg.Model, cfg.WorkflowClient = p, p
	ep, full := runOne(ctx, cfg, playerSink{WriterSink{W: w}, p}, j)
	p.Finish(&ep)
	if err := w.Append(ep); err != nil {
		unrecorded := ep
		loseToFault(&unrecorded, "recording the episode in "+record.EpisodesFile, err)
		return ep, &StopError{Lost: 1, Last: unrecorded, NoSpace: isNoSpace(err)}
	}
	if full {
		return ep, &StopError{Lost: 1, Last: ep, NoSpace: true}
	}
	return ep, nil
}

// playerSink opens an episode's trajectory watched by its player.
type playerSink struct {
	WriterSink
	p *replay.Player
}

// Trajectory opens the episode's trajectory file and wraps it in the
// player's watch.
func (s playerSink) Trajectory(ep record.Episode) (Trajectory, error) {
	t, err := s.WriterSink.Trajectory(ep)
	if err != nil {
		return nil, err
	}
	return s.p.Watch(t), nil
}
