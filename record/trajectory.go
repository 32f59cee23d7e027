package record

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Trajectory is one episode's event log: trajectories/<task>/<track>/seed-<s>[-r<k>].jsonl.
// It implements Recorder. A write error never fails the track: the first one
// is kept and returned by Err and Close, and later events are dropped.
type Trajectory struct {
	path string

	mu     sync.Mutex
	f      *os.File
	seq    int
	err    error
	closed bool
	now    func() time.Time
	sum    hash.Hash // SHA-256 of every line written
}

var _ Recorder = (*Trajectory)(nil)

// Trajectory creates the trajectory file of one episode, cutting off what an
// unfinished earlier attempt (a resumed run) left in it.
func (w *Writer) Trajectory(task, track string, seed, repeat int) (*Trajectory, error) {
	return w.trajectory(seed, repeat, [][2]string{{"task", task}, {"track", track}})
}

// trajectory creates trajectories/<folders...>/seed-S[-rK].jsonl; each
// folder is a (what, name) pair, checked.
func (w *Writer) trajectory(seed, repeat int, folders [][2]string) (*Trajectory, error) {
	parts := []string{TrajectoriesDir}
	for _, f := range folders {
		if err := checkPathPart(f[0], f[1]); err != nil {
			return nil, err
		}
		parts = append(parts, f[1])
	}
	dir, err := mkdirSynced(w.dir, parts...)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, TrajectoryFile(seed, repeat))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating trajectory: %w", err)
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, err
	}
	return &Trajectory{path: path, f: f, now: time.Now, sum: sha256.New()}, nil
}

// EpisodeTrajectory creates the trajectory file of episode ep (its task,
// track, model, variant, seed and repeat) where TrajectoryRel puts it: in
// a folder per model when the run has several models, per variant when it
// has dimensions.
func (w *Writer) EpisodeTrajectory(ep Episode) (*Trajectory, error) {
	folders := [][2]string{{"task", ep.Task}, {"track", ep.Track}}
	if w.run.SeveralModels() {
		folders = append(folders, [2]string{"model", ModelDir(ep.Model)})
	}
	if ep.Variant != "" {
		folders = append(folders, [2]string{"variant", VariantDir(ep.Variant)})
	}
	return w.trajectory(ep.Seed, ep.Repeat, folders)
}

// mkdirSynced creates root/parts..., syncing each parent that gains an entry
// so the new folders survive a crash, and returns the path.
func mkdirSynced(root string, parts ...string) (string, error) {
	dir := root
	for _, part := range parts {
		parent := dir
		dir = filepath.Join(dir, part)
		err := os.Mkdir(dir, 0o755)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("creating trajectory folder: %w", err)
		}
		if err := syncDir(parent); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// checkPathPart refuses a task or track name that would escape its folder.
func checkPathPart(what, name string) error {
	if !PlainName(name) {
		return fmt.Errorf("%s name %q cannot name a trajectory folder (want a plain name without slashes)", what, name)
	}
	return nil
}

// Path is the trajectory file's path.
func (t *Trajectory) Path() string { return t.path }

// Record sets ev's Format, Seq (0, 1, 2, … in call order) and Time (UTC),
// writes it as one line and syncs it to disk.
func (t *Trajectory) Record(ev Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return
	}
	if t.closed {
		t.err = fmt.Errorf("%s: event %q recorded after Close", t.path, ev.Kind)
		return
	}
	ev.Format = FormatVersion
	ev.Seq = t.seq
	ev.Time = t.now().UTC()
	line, err := jsonLine(ev)
	if err != nil {
		t.err = fmt.Errorf("%s: encoding event %d (%s): %w", t.path, ev.Seq, ev.Kind, err)
		return
	}
	if _, err := t.f.Write(line); err != nil {
		t.err = fmt.Errorf("%s: writing event %d (%s): %w", t.path, ev.Seq, ev.Kind, err)
		return
	}
	t.sum.Write(line)
	if err := t.f.Sync(); err != nil {
		t.err = fmt.Errorf("%s: syncing event %d (%s): %w", t.path, ev.Seq, ev.Kind, err)
		return
	}
	t.seq++
}

// SHA256 is the hex SHA-256 of the file as written so far: every event
// recorded, each synced to disk (Episode.TrajectorySHA256).
func (t *Trajectory) SHA256() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return hex.EncodeToString(t.sum.Sum(nil))
}

// Err is the first error met while recording, or nil.
func (t *Trajectory) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Close closes the file and returns the first recording error, if any.
func (t *Trajectory) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return t.err
	}
	t.closed = true
	if err := t.f.Close(); err != nil && t.err == nil {
		t.err = fmt.Errorf("closing %s: %w", t.path, err)
	}
	return t.err
}

// ReadTrajectory reads a trajectory file. A torn last line (the episode was
// killed mid-write) or a malformed line is skipped with a warning; a file
// written by a newer bench is an error.
func ReadTrajectory(path string) ([]Event, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("trajectory %s does not exist", path)
		}
		return nil, nil, fmt.Errorf("reading trajectory: %w", err)
	}
	defer f.Close()
	var events []Event
	tail, err := scanJSONL(f, path, decodeJSON[Event], func(line int, ev *Event) error {
		if ev.Format > FormatVersion {
			return newerFormat(path, line, ev.Format)
		}
		events = append(events, *ev)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return events, tail.warnings, nil
}
