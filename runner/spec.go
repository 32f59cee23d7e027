package runner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"bench/internal/suggest"
	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/track"
)

// Spec is what a person chooses for a new run. DefaultSpec fills in the
// defaults; NewRun checks it. Its errors name the command-line flags, which
// map one to one onto its fields.
type Spec struct {
	Model           model.Config  // backend, host, model, per-call timeout; unused when no track calls a model
	Models          []string      // several models (--model a,b), a dimension of the plan; empty = Model.Model
	WorkflowModel   string        // the model the hybrid's run_workflow asks (--workflow-model); "" = the episode's
	Hosts           []string      // several servers (--host URL1,URL2), a pool; empty = Model.Host
	ParallelPerHost int           // episodes one server takes at once; 0 = Parallel spread over the hosts
	Shard           *record.Shard // the part of the plan to run (--shard i/n); nil = all
	UID             string        // the run's identity (--run-uid: shards of one sweep may share one); "" = a new one
	Tasks           []tasks.Task  // in the order they are run
	Tracks          []string      // track words (TrackWords), each once
	Seeds           []int         // a repeated seed is a twin run
	Temperature     float64
	NumCtx          int
	TopP            float64 // 0 leaves the server's default
	Think           bool
	MaxTokens       int   // cap on one reply; 0 = the server's default
	MaxReplyBytes   int64 // cap on the bytes of one reply bench reads; 0 = model.Config.ReplyCap's default
	TokenLimit      int   // the agent's token budget per episode; 0 = none
	MaxTurns        int
	Tries           int
	Posture         string // PostureOff, PostureAuto or PostureOn
	Parallel        int    // episodes at once, 1 to MaxParallel
	EpisodeTimeout  time.Duration
	WorkspaceLimit  int64     // the most a workspace may hold to be graded, bytes; 0 = grade.DefaultWorkspaceLimit
	Dir             string    // the results folder; "" = DefaultDir
	BenchVersion    string    // recorded in run.json
	Started         time.Time // zero = now
}

// DefaultSpec is a Spec with every default set and no tasks, tracks or seeds.
func DefaultSpec() Spec {
	return Spec{
		Model:       model.Config{Backend: model.BackendOllama, Model: model.DefaultModel, Timeout: model.DefaultTimeout},
		Temperature: DefaultTemperature, NumCtx: DefaultNumCtx, MaxTokens: DefaultMaxTokens,
		MaxTurns: DefaultMaxTurns, Tries: DefaultTries, Posture: DefaultPosture,
		Parallel: DefaultParallel, EpisodeTimeout: DefaultEpisodeTimeout,
	}
}

// Check reports the first setting a run cannot be made with, in words a
// person can act on.
func (s Spec) Check() error {
	if b := s.Model.Backend; b != model.BackendOllama && b != model.BackendOpenAI {
		return fmt.Errorf("unknown --backend %q: use %s or %s", b, model.BackendOllama, model.BackendOpenAI)
	}
	if len(s.Tasks) == 0 {
		return fmt.Errorf("no tasks to run: name at least one with --tasks")
	}
	if err := checkTracks(s.Tracks); err != nil {
		return err
	}
	if len(s.Seeds) == 0 {
		return fmt.Errorf("--seeds is empty: give a comma-separated list of whole numbers such as 1,2,3")
	}
	for _, n := range s.Seeds {
		if n < 0 {
			return fmt.Errorf("seed %d is negative; seeds are 0 or more (servers take -1 as \"pick a random seed\", which no run can repeat)", n)
		}
	}
	if p := s.Posture; p != PostureOff && p != PostureAuto && p != PostureOn {
		return fmt.Errorf("unknown --posture %q: use off, auto or on", p)
	}
	if err := checkNumbers(s); err != nil {
		return err
	}
	if s.Model.Timeout <= 0 {
		return fmt.Errorf("--timeout must be positive, got %s", s.Model.Timeout)
	}
	if s.EpisodeTimeout <= 0 {
		return fmt.Errorf("--episode-timeout must be positive, got %s", s.EpisodeTimeout)
	}
	if err := checkSweep(s); err != nil {
		return err
	}
	if err := checkWorkflowModel(s); err != nil {
		return err
	}
	return CheckParallel(s.Parallel)
}

// checkWorkflowModel checks --workflow-model: one model, for a track that asks it.
func checkWorkflowModel(s Spec) error {
	m := s.WorkflowModel
	if m == "" {
		return nil
	}
	if strings.Contains(m, ",") || strings.TrimSpace(m) != m {
		return fmt.Errorf("--workflow-model %q: give one model name, such as qwen3:0.6b", m)
	}
	delegates := func(name string) bool { return trackHas(name, func(t track.Track) bool { return t.Delegates }) }
	if !slices.ContainsFunc(s.Tracks, delegates) {
		return fmt.Errorf("--workflow-model is the model the hybrid track's run_workflow asks, and no track of --tracks asks it; add hybrid to --tracks or drop --workflow-model")
	}
	return nil
}

// checkSweep checks the sweep's dimensions: models named once each (and
// not to the same trajectory folder), hosts named once each, a sane
// --parallel-per-host.
func checkSweep(s Spec) error {
	seen := map[string]string{}
	for _, m := range s.Models {
		if m == "" {
			return fmt.Errorf("--model names an empty model between commas; give names such as qwen3:8b,gemma3:4b")
		}
		if prev, ok := seen[record.ModelDir(m)]; ok {
			return fmt.Errorf("--model names %q and %q, which are the same model or would share a results folder; name each model once", prev, m)
		}
		seen[record.ModelDir(m)] = m
	}
	for i, h := range s.Hosts {
		if h == "" || slices.Contains(s.Hosts[:i], h) {
			return fmt.Errorf("--host lists %q twice or empty; give each server once: URL1,URL2", h)
		}
	}
	if s.ParallelPerHost < 0 || s.ParallelPerHost > MaxParallel {
		return fmt.Errorf("--parallel-per-host must be between 1 and %d, got %d", MaxParallel, s.ParallelPerHost)
	}
	return nil
}

// checkTracks checks that tracks is not empty, and holds only known tracks, each once.
func checkTracks(tracks []string) error {
	if len(tracks) == 0 {
		return fmt.Errorf("--tracks is empty: name at least one of %s", strings.Join(TrackWords(), ", "))
	}
	for i, w := range tracks {
		if _, ok := LookupTrack(w); !ok {
			return fmt.Errorf("unknown track %q in --tracks%s: valid tracks are %s", w, suggest.DidYouMean(w, TrackWords(), ""), strings.Join(TrackWords(), ", "))
		}
		if slices.Contains(tracks[:i], w) {
			return fmt.Errorf("track %q is named twice in --tracks", w)
		}
	}
	return nil
}

// checkNumbers checks the numeric settings: finite floats in range, whole
// numbers at least their minimum.
func checkNumbers(s Spec) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"temperature", s.Temperature}, {"top-p", s.TopP}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("--%s must be a finite number, got %g", f.name, f.v)
		}
	}
	if s.Temperature < 0 {
		return fmt.Errorf("--temperature must be 0 or more, got %g", s.Temperature)
	}
	if s.TopP < 0 || s.TopP > 1 {
		return fmt.Errorf("--top-p must be between 0 and 1, got %g", s.TopP)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"max-turns", s.MaxTurns}, {"tries", s.Tries}, {"num-ctx", s.NumCtx}} {
		if f.v < 1 {
			return fmt.Errorf("--%s must be at least 1, got %d", f.name, f.v)
		}
	}
	if s.MaxTokens < 0 {
		return fmt.Errorf("--max-tokens must be 0 (the server's default) or more, got %d", s.MaxTokens)
	}
	if s.TokenLimit < 0 {
		return fmt.Errorf("--token-limit must be 0 (no limit) or more, got %d", s.TokenLimit)
	}
	if s.WorkspaceLimit < 0 {
		return fmt.Errorf("--workspace-limit must be 0 (the default, 256MiB) or more, got %d", s.WorkspaceLimit)
	}
	if s.MaxReplyBytes < 0 {
		return fmt.Errorf("--max-reply-bytes must be 0 (the default: 4 × --max-tokens × %d bytes) or more, got %d", model.BytesPerToken, s.MaxReplyBytes)
	}
	return nil
}

// CheckParallel checks a number of episodes to run at once.
func CheckParallel(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("--parallel must be at least 1, got %d", n)
	case n > MaxParallel:
		return fmt.Errorf("--parallel must be at most %d, got %d: more episodes at once only compete for the same cores and the same model server", MaxParallel, n)
	}
	return nil
}
