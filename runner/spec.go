package runner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"bench/internal/suggest"
	"bench/model"
	"bench/record"
	"bench/tasks"
	"bench/track"
)

// Spec is what a person chooses for a new run (bench run's flags, whose
// defaults are record.DefaultSettings and the model package's); NewRun
// checks it. Its errors name the command-line flags: the
// settings (record.RunSettings, declared in record.Table) map one to one
// onto them.
type Spec struct {
	Model  model.Config  // backend, host, model, per-call timeout; unused when no track calls a model
	Models []string      // several models (--model a,b), a dimension of the plan; empty = Model.Model
	Hosts  []string      // several servers (--host URL1,URL2), a pool; empty = Model.Host
	Shard  *record.Shard // the part of the plan to run (--shard i/n); nil = all
	UID    string        // the run's identity (--run-uid: shards of one sweep may share one); "" = a new one
	Tasks  []tasks.Task  // in the order they are run
	Tracks []string      // track words (TrackWords), each once
	Seeds  []int         // a repeated seed is a twin run
	record.RunSettings
	// Dimensions are the settings given several values (--posture off,on),
	// in record.Table's order; RunSettings holds each one's first value.
	Dimensions   []record.Dimension
	Dir          string    // the results folder; "" = DefaultDir
	BenchVersion string    // recorded in run.json
	Started      time.Time // zero = now
}

// Check reports the first setting a run cannot be made with, in words a
// person can act on.
func (s Spec) Check() error {
	if backend, _ := record.Lookup("backend"); backend.Check != nil {
		if err := backend.Check(backend.Name, s.Model.Backend); err != nil {
			return err
		}
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
		if err := record.CheckSeed(n); err != nil {
			return err
		}
	}
	if err := s.RunSettings.Check(); err != nil {
		return err
	}
	if err := record.CheckDimensions(s.Dimensions, s.RunSettings); err != nil {
		return err
	}
	if err := model.CheckTimeout(s.Model.Timeout); err != nil {
		return err
	}
	if err := checkSweep(s); err != nil {
		return err
	}
	return checkWorkflowModel(s)
}

// checkWorkflowModel checks --workflow-model is for a track that asks it
// (the table checks it names one model).
func checkWorkflowModel(s Spec) error {
	if s.WorkflowModel == "" {
		return nil
	}
	delegates := func(name string) bool { return trackHas(name, func(t track.Track) bool { return t.Delegates }) }
	if !slices.ContainsFunc(s.Tracks, delegates) {
		return fmt.Errorf("--workflow-model is the model the hybrid track's run_workflow asks, and no track of --tracks asks it; add hybrid to --tracks or drop --workflow-model")
	}
	return nil
}

// checkSweep checks the sweep's dimensions: models named once each (and
// not to the same trajectory folder), hosts named once each.
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

// CheckParallel checks a number of episodes to run at once.
func CheckParallel(n int) error {
	d, _ := record.Lookup("parallel")
	return d.Check(d.Name, n)
}
