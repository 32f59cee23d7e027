package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"bench/internal/flock"
)

// File names inside a run folder (a contract).
const (
	RunFile         = "run.json"
	EpisodesFile    = "episodes.jsonl"
	TrajectoriesDir = "trajectories"
	// LockFile is the file a writer holds an exclusive flock on while it
	// writes the folder; it says who holds it. The kernel releases the
	// lock when the process ends, however it ends.
	LockFile = "run.lock"
)

// Writer appends finished episodes to a run folder and opens trajectory files.
// Append is safe for concurrent use by several episode goroutines.
type Writer struct {
	dir   string
	runID string
	run   Run // what run.json says: where trajectories go

	mu     sync.Mutex
	eps    *os.File
	lock   *os.File // holds the folder's flock until Close
	size   int64    // bytes of episodes.jsonl known to be whole lines
	closed bool
}

// Create makes the run folder dir, takes its lock (see Lock), writes
// run.json atomically (with Format set, UID to a new one when empty, and
// Started set to now when zero, in UTC) and opens an empty episodes.jsonl.
// It refuses a run that fails Run.Check (what every reader checks), a
// folder that already holds a run, or one another writer holds
// (*LockedError), and creates nothing then.
func Create(dir string, run Run) (w *Writer, err error) {
	run.Format = FormatVersion
	if run.UID == "" {
		run.UID = NewUID() // the run's identity, kept by --resume (see Run.UID)
	}
	if run.Started.IsZero() {
		run.Started = time.Now()
	}
	run.Started = run.Started.UTC()
	if err := run.Check(); err != nil { // what every reader checks: never write a run.json no reader takes
		return nil, fmt.Errorf("not a run bench can write: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the run folder: %w", err)
	}
	lock, err := Lock(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			flock.Release(lock)
		}
	}()
	runPath := filepath.Join(dir, RunFile)
	if _, err := os.Stat(runPath); err == nil {
		return nil, fmt.Errorf("%s already holds a run (%s exists); use --resume %s to finish it, or choose another folder", dir, RunFile, dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("checking %s: %w", runPath, err)
	}
	epsPath := filepath.Join(dir, EpisodesFile)
	if _, err := os.Stat(epsPath); err == nil {
		return nil, fmt.Errorf("%s holds %s but no %s; it is not a run bench can add to (move it away or choose another folder)", dir, EpisodesFile, RunFile)
	}
	if err := os.MkdirAll(filepath.Join(dir, TrajectoriesDir), 0o755); err != nil {
		return nil, fmt.Errorf("creating the run folder: %w", err)
	}
	data, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", runPath, err)
	}
	if err := writeFileAtomic(runPath, append(data, '\n')); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(epsPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", epsPath, err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} { // the new files, then the new folder
		if err := syncDir(d); err != nil {
			f.Close()
			return nil, err
		}
	}
	return &Writer{dir: dir, runID: run.ID, run: run, eps: f, lock: lock}, nil
}

// Resume takes the lock of the run in dir (see Lock), reopens it for
// appending and returns what it holds so far, read under the lock, so the
// caller can skip finished episodes. A torn last line of episodes.jsonl is
// cut off first, with a warning, so the file stays valid JSONL.
func Resume(dir string) (w *Writer, _ Data, err error) {
	if _, _, err := readRun(dir); err != nil {
		return nil, Data{}, err // no run to lock: say that, not where the lock would go
	}
	lock, err := Lock(dir)
	if err != nil {
		return nil, Data{}, err
	}
	defer func() {
		if err != nil {
			flock.Release(lock)
		}
	}()
	data, tail, err := read(dir)
	if err != nil {
		return nil, Data{}, err
	}
	epsPath := filepath.Join(dir, EpisodesFile)
	f, err := os.OpenFile(epsPath, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, Data{}, fmt.Errorf("reopening %s: %w", epsPath, err)
	}
	size := tail.end
	switch {
	case tail.tornAt >= 0:
		if err := f.Truncate(tail.tornAt); err != nil {
			f.Close()
			return nil, Data{}, fmt.Errorf("cutting the torn last line off %s: %w", epsPath, err)
		}
		size = tail.tornAt
		data.Warnings = append(data.Warnings, fmt.Sprintf("%s: removed the torn last line (%d bytes) before appending", epsPath, tail.end-tail.tornAt))
	case tail.missingNewline:
		if _, err := f.Write([]byte{'\n'}); err != nil {
			f.Close()
			return nil, Data{}, fmt.Errorf("ending the last line of %s: %w", epsPath, err)
		}
		size++
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, Data{}, fmt.Errorf("syncing %s: %w", epsPath, err)
	}
	return &Writer{dir: dir, runID: data.Run.ID, run: data.Run, eps: f, lock: lock, size: size}, data, nil
}

// Dir is the run folder.
func (w *Writer) Dir() string { return w.dir }

// Append writes ep as one line of episodes.jsonl and syncs it to disk.
// It sets ep.Format, and ep.Run when empty. If the write fails part way, the
// partial line is cut off again so the file stays valid.
func (w *Writer) Append(ep Episode) error {
	ep.Format = FormatVersion
	if ep.Run == "" {
		ep.Run = w.runID
	}
	line, err := jsonLine(ep)
	if err != nil {
		return fmt.Errorf("encoding episode %s: %w", ep.Key(), err)
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("appending episode %s: the results writer is closed", ep.Key())
	}
	n, err := w.eps.Write(line)
	if err == nil {
		err = w.eps.Sync()
	}
	if err != nil {
		if n > 0 {
			_ = w.eps.Truncate(w.size) // best effort: never leave half a line behind
		}
		return fmt.Errorf("appending episode %s to %s: %w", ep.Key(), w.eps.Name(), err)
	}
	w.size += int64(n)
	return nil
}

// Close closes episodes.jsonl and releases the folder's lock.
// Trajectories are closed by their owners.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	defer flock.Release(w.lock) // the lock file stays: removing it would let two writers lock two files
	if err := w.eps.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", w.eps.Name(), err)
	}
	return nil
}

// LockedError is the refusal of a run folder that another writer holds.
type LockedError struct {
	Dir    string
	Holder string // what the lock file says of its holder: "pid 12 on host h since …"; "" if it says nothing
}

// Error says who holds the folder and what to do.
func (e *LockedError) Error() string {
	who := "another bench process"
	if e.Holder != "" {
		who += " (" + e.Holder + ")"
	}
	return fmt.Sprintf("%s is being written by another bench: %s holds it; wait for it to finish or stop it (a process that ends, however it ends, lets go of the folder)", e.Dir, who)
}

// Lock takes the exclusive lock of the run folder dir: a flock on its
// LockFile, which then says who holds it (pid, host, since when). It
// refuses at once, with a *LockedError, a folder another writer holds,
// in this process or another (after lockGrace). The lock lasts until the
// returned file is closed or the process ends. Readers (bench report)
// take no lock.
func Lock(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the lock of %s: %w", dir, err)
	}
	if err := flockSoon(f); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder, _ := io.ReadAll(io.LimitReader(f, 512))
			return nil, &LockedError{Dir: dir, Holder: strings.TrimSpace(string(holder))}
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	host, _ := os.Hostname()
	who := fmt.Sprintf("pid %d on host %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	// Who holds it is a courtesy: the flock is the lock, written or not.
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(who), 0)
	return f, nil
}

// lockGrace is how long Lock tries again before it refuses: a writer
// that is letting go (flock.Release) may not have yet.
const lockGrace = time.Second

// flockSoon takes f's exclusive flock, trying again for lockGrace.
func flockSoon(f *os.File) error {
	ctx, cancel := context.WithTimeout(context.Background(), lockGrace)
	defer cancel()
	return flock.Wait(ctx, f, 20*time.Millisecond)
}

// Holder reports, without taking it, whether another writer holds the
// lock of the run folder dir, as the *LockedError a writer would meet;
// nil when none does (or dir holds no lock file yet).
func Holder(dir string) error {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder, _ := io.ReadAll(io.LimitReader(f, 512))
			return &LockedError{Dir: dir, Holder: strings.TrimSpace(string(holder))}
		}
		return nil
	}
	return nil // closing f lets go of the shared lock at once
}

// writeFileAtomic writes data to path through a temporary file in the same
// folder, syncs it, renames it into place and syncs the folder.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return syncDir(dir)
}

// syncDir makes a folder's entries (new or renamed files) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing folder %s: %w", dir, err)
	}
	return nil
}
