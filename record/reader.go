package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Data is what a run folder holds.
type Data struct {
	Dir string
	Run Run
	// UID is the run's identity: Run.UID, or, for a folder written before
	// runs recorded one, one derived from its run.json's bytes.
	UID      string
	Episodes []Episode // in file order; a repeated episode key keeps its last line
	Warnings []string  // torn or malformed lines that were skipped, repeated episodes (but for a redone interrupted or lost one)
}

// Read reads run.json and episodes.jsonl of the run folder dir.
// A torn last line (a run killed mid-write) or a malformed line is skipped
// with a warning; a missing folder or run.json, or a newer format, is an error.
func Read(dir string) (Data, error) {
	data, _, err := read(dir)
	return data, err
}

// read is Read plus where episodes.jsonl's torn tail starts, for Resume.
func read(dir string) (Data, jsonlTail, error) {
	run, uid, err := readRun(dir)
	if err != nil {
		return Data{}, jsonlTail{}, err
	}
	path := filepath.Join(dir, EpisodesFile)
	data := Data{Dir: dir, Run: run, UID: uid, Episodes: make([]Episode, 0, lineCount(path)+1)}
	var seen latest[episodeKey]
	tail, err := scanFile(path, decodeEpisode, func(line int, ep *Episode) error {
		if ep.Format > FormatVersion {
			return newerFormat(path, line, ep.Format)
		}
		status := ep.Verdict().Status
		pos, prev, _ := seen.place(episodeKey{ep.Task, ep.Track, ep.Model, ep.Variant, ep.Seed, ep.Repeat}, line, status == StatusInterrupted || status == StatusLost)
		if prev > 0 {
			data.Warnings = append(data.Warnings, repeatWarning(path, line, ep.Key(), prev))
		}
		if pos < len(data.Episodes) {
			data.Episodes[pos] = *ep
		} else {
			data.Episodes = append(data.Episodes, *ep)
		}
		return nil
	})
	if err != nil {
		return Data{}, jsonlTail{}, err
	}
	data.Warnings = append(data.Warnings, tail.warnings...)
	return data, tail, nil
}

// decodeEpisode decodes an episode line, with format 1's spelling of an
// error kind read as this bench spells it.
func decodeEpisode(line []byte, ep *Episode) error {
	if err := json.Unmarshal(line, ep); err != nil {
		return err
	}
	if formatOneCallTimeout(ep.Format, string(ep.ErrorKind)) {
		ep.ErrorKind = ErrorCallTimeout
	}
	return nil
}

// lineCount counts the lines of the file at path (0 when it cannot be
// read, as scanFile then says), so that a reader can size what it keeps
// once: growing an array of a hundred thousand episodes copies them in one
// runtime call that cannot be preempted, on pages touched for the first
// time, and a garbage collection waiting to scan the goroutine signals it
// again and again meanwhile (90,000 signals and 5 s of system time reading
// 100,000 episodes on a machine with slow page faults; see
// docs/ARCHITECTURE.md).
func lineCount(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n, buf := 0, make([]byte, 256<<10)
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err != nil {
			return n
		}
	}
}

// scanFile decodes each line of the JSONL file at path with decode and
// passes it to visit, in file order (see scanJSONL). A missing file is a
// warning.
func scanFile[T any](path string, decode func([]byte, *T) error, visit func(line int, v *T) error) (jsonlTail, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return jsonlTail{tornAt: -1, warnings: []string{missingEpisodes(path)}}, nil
	}
	if err != nil {
		return jsonlTail{}, fmt.Errorf("reading episodes: %w", err)
	}
	defer f.Close()
	return scanJSONL(f, path, decode, visit)
}

// episodeKey identifies an episode within a run: its task, track, model,
// variant (the run's dimensions), seed and repeat.
type episodeKey struct {
	task, track, model, variant string
	seed, repeat                int
}

// latest keeps where each episode read sits, by a key K that identifies
// it, so that a repeated episode key keeps its later line in the place of
// the first.
type latest[K comparable] struct {
	index map[K]int32 // episode → position among the episodes read
	lines []int32     // line of each position
	redo  []bool      // whether each position's episode is one --resume redoes
}

// place returns the position of the episode with key k read at line: a
// new one (the count so far) or that of the earlier line it replaces
// (replaces set), with that line's number when the repeat deserves a
// warning (else 0: an interrupted or lost episode, which --resume redoes,
// is expected to repeat). redo says whether this episode is interrupted
// or lost.
func (l *latest[K]) place(k K, line int, redo bool) (pos, prev int, replaces bool) {
	if l.index == nil {
		l.index = map[K]int32{}
	}
	p, ok := l.index[k]
	if !ok {
		pos = len(l.lines)
		l.index[k] = int32(pos)
		l.lines, l.redo = append(l.lines, int32(line)), append(l.redo, redo)
		return pos, 0, false
	}
	pos = int(p)
	if !l.redo[pos] {
		prev = int(l.lines[pos])
	}
	l.lines[pos], l.redo[pos] = int32(line), redo
	return pos, prev, true
}

// placeAt is place for an episode whose position is kept at *slot (1 +
// the position, 0 for none) rather than in the index.
func (l *latest[K]) placeAt(slot *int32, line int, redo bool) (pos, prev int, replaces bool) {
	if *slot == 0 {
		pos = len(l.lines)
		*slot = int32(pos + 1)
		l.lines, l.redo = append(l.lines, int32(line)), append(l.redo, redo)
		return pos, 0, false
	}
	pos = int(*slot - 1)
	if !l.redo[pos] {
		prev = int(l.lines[pos])
	}
	l.lines[pos], l.redo[pos] = int32(line), redo
	return pos, prev, true
}

// reserve makes room for n episodes, when there is less: one copy of the
// index instead of the many of its growing, which for a million episodes
// would hold several times their size at once.
func (l *latest[K]) reserve(n int) {
	if n <= 2*len(l.index) {
		return
	}
	index := make(map[K]int32, n/8) // most keys are kept elsewhere (denseFirst): reserve for repeats
	maps.Copy(index, l.index)
	l.index = index
	l.lines, l.redo = slices.Grow(l.lines, n-len(l.lines)), slices.Grow(l.redo, n-len(l.redo))
}

// repeatWarning words the warning for an episode whose key repeats an
// earlier line.
func repeatWarning(path string, line int, key string, prev int) string {
	return fmt.Sprintf("%s:%d: episode %s repeats line %d; keeping the later line", path, line, key, prev)
}

// readRun reads and checks run.json, and returns it with the run's
// identity (see Data.UID).
func readRun(dir string) (Run, string, error) {
	if st, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Run{}, "", fmt.Errorf("run folder %s does not exist", dir)
		}
		return Run{}, "", fmt.Errorf("reading run folder: %w", err)
	} else if !st.IsDir() {
		return Run{}, "", fmt.Errorf("%s is not a folder (want a run folder holding %s)", dir, RunFile)
	}
	path := filepath.Join(dir, RunFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Run{}, "", fmt.Errorf("%s is missing: %s is not a bench run folder, or its run never started", path, dir)
	}
	if err != nil {
		return Run{}, "", fmt.Errorf("reading run description: %w", err)
	}
	run, err := parseRun(b)
	if err != nil {
		return Run{}, "", fmt.Errorf("%s: %w", path, err)
	}
	return run, identity(run, b), nil
}

// newerFormat is the error for a record written by a newer bench.
func newerFormat(path string, line, format int) error {
	where := path
	if line > 0 {
		where = fmt.Sprintf("%s:%d", path, line)
	}
	return fmt.Errorf("%s has format %d, newer than this bench reads (%d): upgrade bench to read it", where, format, FormatVersion)
}

// TrajectoryPath is the path of ep's trajectory file in the run folder.
func (d Data) TrajectoryPath(ep Episode) string {
	return filepath.Join(d.Dir, TrajectoryRel(d.Run, ep))
}

// MissingTrajectories returns the episodes whose trajectory file is
// missing, in file order.
func (d Data) MissingTrajectories() []Episode {
	var out []Episode
	for _, ep := range d.Episodes {
		if _, err := os.Lstat(d.TrajectoryPath(ep)); errors.Is(err, fs.ErrNotExist) {
			out = append(out, ep)
		}
	}
	return out
}
