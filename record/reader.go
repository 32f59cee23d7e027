package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Data is what a run folder holds.
type Data struct {
	Dir      string
	Run      Run
	Episodes []Episode // in file order; a repeated episode key keeps its last line
	Warnings []string  // torn or malformed lines that were skipped, repeated episodes (but for a redone interrupted or lost one)
}

// Finished reports the keys (Episode.Key) of the episodes already recorded.
func (d Data) Finished() map[string]bool {
	done := make(map[string]bool, len(d.Episodes))
	for _, ep := range d.Episodes {
		done[ep.Key()] = true
	}
	return done
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
	run, err := readRun(dir)
	if err != nil {
		return Data{}, jsonlTail{}, err
	}
	data := Data{Dir: dir, Run: run}
	path := filepath.Join(dir, EpisodesFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		data.Warnings = append(data.Warnings, fmt.Sprintf("%s is missing: no episode finished", path))
		return data, jsonlTail{tornAt: -1}, nil
	}
	if err != nil {
		return Data{}, jsonlTail{}, fmt.Errorf("reading episodes: %w", err)
	}
	defer f.Close()

	type key struct {
		task, track, model string
		seed, repeat       int
	}
	index := map[key]int{} // episode → position in data.Episodes
	var lines []int        // line of each of data.Episodes
	tail, err := scanJSONL(f, path, func(line int, ep Episode) error {
		if ep.Format > FormatVersion {
			return newerFormat(path, line, ep.Format)
		}
		k := key{ep.Task, ep.Track, ep.Model, ep.Seed, ep.Repeat}
		if i, ok := index[k]; ok {
			// An interrupted or lost episode is redone by --resume: its later line is expected.
			if prev := data.Episodes[i]; prev.ExitReason == ExitInterrupted || prev.Lost() {
				data.Episodes[i], lines[i] = ep, line
				return nil
			}
			data.Warnings = append(data.Warnings, fmt.Sprintf("%s:%d: episode %s repeats line %d; keeping the later line", path, line, ep.Key(), lines[i]))
			data.Episodes[i], lines[i] = ep, line
			return nil
		}
		index[k] = len(data.Episodes)
		data.Episodes = append(data.Episodes, ep)
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		return Data{}, jsonlTail{}, err
	}
	data.Warnings = append(data.Warnings, tail.warnings...)
	return data, tail, nil
}

// readRun reads and checks run.json.
func readRun(dir string) (Run, error) {
	if st, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Run{}, fmt.Errorf("run folder %s does not exist", dir)
		}
		return Run{}, fmt.Errorf("reading run folder: %w", err)
	} else if !st.IsDir() {
		return Run{}, fmt.Errorf("%s is not a folder (want a run folder holding %s)", dir, RunFile)
	}
	path := filepath.Join(dir, RunFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Run{}, fmt.Errorf("%s is missing: %s is not a bench run folder, or its run never started", path, dir)
	}
	if err != nil {
		return Run{}, fmt.Errorf("reading run description: %w", err)
	}
	var run Run
	if err := json.Unmarshal(b, &run); err != nil {
		return Run{}, fmt.Errorf("%s is not a valid run description: %v", path, err)
	}
	switch {
	case run.Format > FormatVersion:
		return Run{}, newerFormat(path, 0, run.Format)
	case run.Format < 1:
		return Run{}, fmt.Errorf("%s has no \"format\" field (want %d): not written by bench", path, FormatVersion)
	}
	return run, nil
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
