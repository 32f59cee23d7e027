package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"bench/record"
	"bench/track"
)

// ExecOptions are how a Session is executed; none of them is recorded.
type ExecOptions struct {
	Keep     bool                 // keep each episode's workspace
	Start    func(Job)            // called with each job as a worker starts it; may be nil
	Call     func(Job)            // called with a job each time its episode sends a model call; may be nil
	Progress func(record.Episode) // called with each finished episode; may be nil
	Warn     func(string)         // called with what reopening the folder changed (a torn line cut off) and with a server taken out of the pool; may be nil
	Tracks   []track.Track        // the tracks the run's names stand for; nil is the registry (Tracks()), tests give fakes
}

// Execute creates the run's folder (or reopens it when resumed), runs the
// pending episodes on servers (ConnectInspected's; nil when no track calls a model) and closes
// the folder. A new run whose folder cannot be made leaves nothing behind.
// It returns a *StopError when the circuit breaker stopped the run; an
// interrupt (ctx cancelled) is not an error: the caller sees ctx.Err().
func (s *Session) Execute(ctx context.Context, servers []Server, opts ExecOptions) error {
	w, err := s.open(opts.Warn)
	if err != nil {
		return err
	}
	cfg := ConfigFrom(s.Run)
	cfg.Keep = opts.Keep
	if opts.Tracks != nil {
		cfg.Tracks = opts.Tracks
	}
	if len(servers) == 0 {
		servers = []Server{{Slots: s.Run.Parallel}} // no track calls a model
	}
	runErr := RunPool(ctx, cfg, servers, WriterSink{W: w}, s.Pending(), PoolOptions{Start: opts.Start, Call: opts.Call, Progress: opts.Progress, Warn: opts.Warn})
	if err := w.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// open creates the run folder, or reopens a resumed one and passes on the
// warnings that reopening added.
func (s *Session) open(warn func(string)) (*record.Writer, error) {
	if !s.Resumed {
		return create(s.Dir, s.Run)
	}
	w, data, err := record.Resume(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", s.Dir, err)
	}
	for _, m := range data.Warnings {
		if warn != nil && !slices.Contains(s.Warnings, m) {
			warn(m)
		}
	}
	s.Done = namedModels(data.Run, data.Episodes) // as read under the lock: no episode is run twice
	return w, nil
}

// create makes a new run folder; when that fails, it removes what it made,
// unless another writer holds the folder (it may have made it meanwhile).
func create(dir string, run record.Run) (*record.Writer, error) {
	made, wasEmpty := firstMissing(dir), isEmptyDir(dir)
	w, err := record.Create(dir, run)
	var locked *record.LockedError
	if err == nil || errors.As(err, &locked) {
		return w, err
	}
	switch {
	case made != "":
		os.RemoveAll(made)
	case wasEmpty:
		for _, name := range []string{record.RunFile, record.EpisodesFile, record.TrajectoriesDir, record.LockFile} {
			os.RemoveAll(filepath.Join(dir, name))
		}
	}
	return nil, err
}

// firstMissing is the outermost folder on the way to dir that does not
// exist yet ("" when dir exists): removing it undoes a MkdirAll of dir.
func firstMissing(dir string) string {
	missing := ""
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = p
		if filepath.Dir(p) == p {
			return missing
		}
	}
}

// isEmptyDir reports whether dir is an existing, empty folder.
func isEmptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// checkOutDir accepts a new or empty results folder, or one holding a run
// (which record.Create refuses with a pointer to --resume); it refuses a
// file and a folder holding other things, which a run must not mix with.
func checkOutDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	if !info.IsDir() {
		return fmt.Errorf("--out %s is a file; give a folder for the results (a new one, or an empty one)", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--out %s cannot be read: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, record.RunFile)); err == nil || len(entries) == 0 {
		return nil
	}
	return fmt.Errorf("--out %s already holds other files (%s, …) and no run.json; give a new or empty folder", dir, entries[0].Name())
}
