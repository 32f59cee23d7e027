package transcript

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"bench/record"
)

// Entry is one episode of a run folder: a line of episodes.jsonl, a
// trajectory file, or both.
type Entry struct {
	Task, Track  string
	Seed, Repeat int
	// Episode is the episode's line in episodes.jsonl; nil when the episode
	// never finished (only its trajectory is on disk).
	Episode *record.Episode
	// Trajectory is the trajectory file's path relative to the run folder,
	// or "" when it is missing.
	Trajectory string
}

// Name is the episode's key: task/track/seed-<s>[-r<k>].
func (e Entry) Name() string {
	return e.Task + "/" + e.Track + "/" + record.TrajectoryName(e.Seed, e.Repeat)
}

// trajectoryFile matches a trajectory's file name: seed-<s>[-r<k>].jsonl.
var trajectoryFile = regexp.MustCompile(`^seed-(-?[0-9]+)(?:-r([0-9]+))?\.jsonl$`)

// Entries lists the episodes of a run folder, from its episodes.jsonl and
// the trajectory files on disk, sorted by task, track, seed and repeat.
func Entries(data record.Data) ([]Entry, error) {
	byName := map[string]*Entry{}
	var out []*Entry
	add := func(e Entry) *Entry {
		if have, ok := byName[e.Name()]; ok {
			return have
		}
		p := &e
		byName[e.Name()] = p
		out = append(out, p)
		return p
	}
	for i := range data.Episodes {
		ep := &data.Episodes[i]
		add(Entry{Task: ep.Task, Track: ep.Track, Seed: ep.Seed, Repeat: ep.Repeat}).Episode = ep
	}
	files, err := trajectoryFiles(data.Dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		add(f.Entry).Trajectory = f.rel
	}
	entries := make([]Entry, len(out))
	for i, p := range out {
		entries[i] = *p
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.Track, b.Track), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Repeat, b.Repeat))
	})
	return entries, nil
}

// found is a trajectory file found on disk.
type found struct {
	Entry
	rel string
}

// trajectoryFiles finds trajectories/<task>/<track>/seed-<s>[-r<k>].jsonl
// under the run folder dir.
func trajectoryFiles(dir string) ([]found, error) {
	matches, err := filepath.Glob(filepath.Join(dir, record.TrajectoriesDir, "*", "*", "seed-*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []found
	for _, m := range matches {
		rel, err := filepath.Rel(dir, m)
		if err != nil {
			return nil, err
		}
		sub := trajectoryFile.FindStringSubmatch(filepath.Base(m))
		if sub == nil {
			continue
		}
		seed, err := strconv.Atoi(sub[1])
		if err != nil {
			continue
		}
		repeat := 0
		if sub[2] != "" {
			if repeat, err = strconv.Atoi(sub[2]); err != nil {
				continue
			}
		}
		track := filepath.Dir(m)
		out = append(out, found{Entry{Task: filepath.Base(filepath.Dir(track)), Track: filepath.Base(track), Seed: seed, Repeat: repeat}, rel})
	}
	return out, nil
}

// Filter selects episodes; an empty Task or Track, or a nil Seed or Repeat,
// matches any.
type Filter struct {
	Task, Track  string
	Seed, Repeat *int
}

// Match reports whether e passes the filter.
func (f Filter) Match(e Entry) bool {
	return (f.Task == "" || f.Task == e.Task) && (f.Track == "" || f.Track == e.Track) &&
		(f.Seed == nil || *f.Seed == e.Seed) && (f.Repeat == nil || *f.Repeat == e.Repeat)
}

// Select returns the entries that pass the filter, in order.
func (f Filter) Select(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if f.Match(e) {
			out = append(out, e)
		}
	}
	return out
}

// Path is the entry's trajectory path inside the run folder dir: the file
// on disk, or where it should be when it is missing.
func (e Entry) Path(dir string) string {
	if e.Trajectory != "" {
		return filepath.Join(dir, e.Trajectory)
	}
	return filepath.Join(dir, record.TrajectoriesDir, e.Task, e.Track, record.TrajectoryName(e.Seed, e.Repeat)+".jsonl")
}

// missing says whether a path does not exist.
func missing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// errNoTrajectory words the error for an episode whose trajectory is missing.
func errNoTrajectory(dir string, e Entry) error {
	return fmt.Errorf("episode %s has no trajectory: %s is missing (episodes.jsonl lists the episode, but its event log was not kept)", e.Name(), e.Path(dir))
}
