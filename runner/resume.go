package runner

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
)

// ResumeOptions are what may change when a run is resumed: where the server
// now is, the per-call timeout and how many episodes run at once.
type ResumeOptions struct {
	Host    string        // "" = run.json's host
	Hosts   []string      // several servers, a pool; empty = Host, else run.json's hosts
	Timeout time.Duration // per model call; 0 = model.DefaultTimeout
	// RetryWindow is how long an unreachable server is waited for, as
	// model.Config takes it; 0 = the default.
	RetryWindow time.Duration
	Parallel    int // 0 = run.json's
	// ParallelPerHost is how many episodes one server takes at once; 0 = run.json's.
	ParallelPerHost int
}

// Resume makes the Session that finishes the run in dir, as its run.json
// describes it, with the tasks taken from all by name. It refuses a run
// whose tasks have changed since it started (checksums) or whose prompts
// this bench would send differently (the prompts digest); the model's
// digest is checked by ConnectInspected. It refuses at once a folder that another
// writer holds (record.LockedError). Nothing is written: Execute reopens
// the folder, under its lock.
func Resume(dir string, all []tasks.Task, opts ResumeOptions) (*Session, error) {
	if opts.Timeout != 0 { // 0 = the default
		if err := model.CheckTimeout(opts.Timeout); err != nil {
			return nil, err
		}
	}
	if opts.Parallel != 0 {
		if err := CheckParallel(opts.Parallel); err != nil {
			return nil, err
		}
	}
	data, err := record.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	if err := record.Holder(dir); err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err) // at once, not after the checks
	}
	r := data.Run
	selected, err := resumeTasks(dir, r, all)
	if err != nil {
		return nil, err
	}
	if d := PromptsDigest(r.Tracks); r.PromptsSHA256 != "" && d != r.PromptsSHA256 {
		return nil, fmt.Errorf("cannot resume %s: this bench sends other prompts than the one that started the run (prompts digest %.12s, run.json has %.12s); finish it with that build, or start a new run with --out", dir, d, r.PromptsSHA256)
	}
	if err := record.CheckDimensions(r.Dimensions, r.RunSettings); err != nil {
		return nil, fmt.Errorf("cannot resume %s: its run.json's dimensions: %w", dir, err)
	}
	r.Parallel = cmp.Or(opts.Parallel, r.Parallel, record.DefaultParallel)
	r.ParallelPerHost = cmp.Or(opts.ParallelPerHost, r.ParallelPerHost)
	s := &Session{
		Dir: dir, Run: r, Tasks: selected, Done: namedModels(r, data.Episodes), Resumed: true,
		Model: model.Config{Backend: r.Backend, Host: cmp.Or(opts.Host, r.Host), Model: r.Model, Timeout: cmp.Or(opts.Timeout, model.DefaultTimeout),
			RetryWindow: opts.RetryWindow, MaxReplyBytes: r.MaxReplyBytes},
		Warnings: slices.Clone(data.Warnings),
	}
	if err := s.resumeHosts(opts); err != nil {
		return nil, err
	}
	for _, ep := range data.MissingTrajectories() {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s: the trajectory of episode %s is missing; the episode stands as recorded, but bench show cannot replay it", data.TrajectoryPath(ep), ep.Key()))
	}
	return s, nil
}

// resumeTasks finds the run's tasks in all, or in the folders they came
// from (withOrigins), and checks that they are
// unchanged since the run started.
func resumeTasks(dir string, r record.Run, all []tasks.Task) ([]tasks.Task, error) {
	names := make([]string, 0, len(r.Tasks))
	for _, ref := range r.Tasks {
		names = append(names, ref.Name)
	}
	all, err := withOrigins(dir, r.Tasks, all)
	if err != nil {
		return nil, err
	}
	selected, err := tasks.Select(all, names)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	refs, err := TaskRefs(selected)
	if err != nil {
		return nil, err
	}
	for i, ref := range refs {
		if ref.Checksum != r.Tasks[i].Checksum {
			return nil, fmt.Errorf("cannot resume %s: task %s has changed since the run started (checksum %s, %s has %s)", dir, ref.Name, ref.Checksum, filepath.Join(dir, record.RunFile), r.Tasks[i].Checksum)
		}
	}
	return selected, nil
}

// resumeHosts sets the session's pool: the hosts given now, else run.json's.
func (s *Session) resumeHosts(opts ResumeOptions) error {
	if !NeedsAnyModel(s.Run.Tracks) {
		return nil
	}
	if names := s.ModelNames(); len(names) > 0 {
		s.Model.Model = names[0]
	}
	hosts := opts.Hosts
	switch {
	case len(hosts) == 0 && opts.Host != "":
		hosts = []string{opts.Host}
	case len(hosts) == 0:
		hosts = orList(s.Run.Hosts, []string{s.Run.Host})
	}
	resolved, err := resolveHosts(s.Model, hosts)
	if err != nil {
		return err
	}
	s.Hosts, s.Model.Host = resolved, resolved[0]
	return nil
}

// namedModels gives the episodes of a one-model run written before
// episodes named their model the run's model, so that their keys match the
// plan's.
func namedModels(r record.Run, eps []record.Episode) []record.Episode {
	if r.SeveralModels() {
		return eps
	}
	for i := range eps {
		if eps[i].Model == "" {
			eps[i].Model = r.Model
		}
	}
	return eps
}
