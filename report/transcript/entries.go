package transcript

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"bench/record"
)

// Entry is one episode of a run folder: a line of episodes.jsonl, a
// trajectory file, or both.
type Entry struct {
	Task, Track string
	// Model is the episode's model in a run of several models, else "".
	Model string
	// Variant is the episode's values of the run's dimensions
	// (record.Episode.Variant), "" in a run without dimensions.
	Variant      string
	Seed, Repeat int
	// Episode is the episode's line in episodes.jsonl; nil when the episode
	// never finished (only its trajectory is on disk).
	Episode *record.Episode
	// Verdict is how the episode counts (record.Data.Verdicts), when it
	// has a line.
	Verdict record.Verdict
	// Trajectory is the trajectory file's path relative to the run folder,
	// or "" when it is missing.
	Trajectory string
}

// Name is the episode's key: task/track[/model][/variant]/seed-<s>[-r<k>].
func (e Entry) Name() string { return e.episode().Key() }

// episode is the entry's identity as an episode.
func (e Entry) episode() record.Episode {
	return record.Episode{Task: e.Task, Track: e.Track, Model: e.Model, Variant: e.Variant, Seed: e.Seed, Repeat: e.Repeat}
}

// Entries lists the episodes of a run folder, from its episodes.jsonl and
// the trajectory files on disk, sorted by task, track, model, seed and
// repeat. In a run of several models each entry names its model.
func Entries(data record.Data) ([]Entry, error) {
	several := data.Run.SeveralModels()
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
	verdicts := data.Verdicts()
	for i := range data.Episodes {
		ep := &data.Episodes[i]
		e := Entry{Task: ep.Task, Track: ep.Track, Variant: ep.Variant, Seed: ep.Seed, Repeat: ep.Repeat}
		if several {
			e.Model = ep.Model
		}
		p := add(e)
		p.Episode, p.Verdict = ep, verdicts[i]
	}
	files, err := trajectoryFiles(data.Dir, data.Run)
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
		return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.Track, b.Track), cmp.Compare(a.Model, b.Model),
			cmp.Compare(a.Variant, b.Variant), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Repeat, b.Repeat))
	})
	return entries, nil
}

// found is a trajectory file found on disk.
type found struct {
	Entry
	rel string
}

// trajectoryFiles finds the trajectories under the run folder dir:
// trajectories/<task>/<track>/seed-<s>[-r<k>].jsonl, with a folder per
// model between track and file when run has several models, then one per
// variant when it has dimensions (record.TrajectoryRel).
func trajectoryFiles(dir string, run record.Run) ([]found, error) {
	pattern := []string{dir, record.TrajectoriesDir, "*", "*"}
	models := map[string]string{} // folder → model name
	if run.SeveralModels() {
		pattern = append(pattern, "*")
		for _, m := range run.Models {
			models[record.ModelDir(m.Name)] = m.Name
		}
	}
	variants := len(run.Dimensions) > 0
	if variants {
		pattern = append(pattern, "*")
	}
	pattern = append(pattern, "seed-*.jsonl")
	matches, err := filepath.Glob(filepath.Join(pattern...))
	if err != nil {
		return nil, err
	}
	var out []found
	for _, m := range matches {
		e, ok := parseTrajectoryPath(m, models, variants)
		if !ok {
			continue
		}
		rel, err := filepath.Rel(dir, m)
		if err != nil {
			return nil, err
		}
		out = append(out, found{e, rel})
	}
	return out, nil
}

// parseTrajectoryPath reads task, track, model (when models is not empty:
// the folder's model, or the folder name for one the run does not list),
// variant (when variants: the folder's, record.VariantDir read back), seed
// and repeat from a trajectory's path.
func parseTrajectoryPath(path string, models map[string]string, variants bool) (Entry, bool) {
	seed, repeat, ok := record.ParseTrajectoryName(filepath.Base(path))
	if !ok {
		return Entry{}, false
	}
	e := Entry{Seed: seed, Repeat: repeat}
	dir := filepath.Dir(path)
	if variants {
		e.Variant = record.VariantOfDir(filepath.Base(dir))
		dir = filepath.Dir(dir)
	}
	if len(models) > 0 {
		folder := filepath.Base(dir)
		e.Model = cmp.Or(models[folder], folder)
		dir = filepath.Dir(dir)
	}
	e.Track, e.Task = filepath.Base(dir), filepath.Base(filepath.Dir(dir))
	return e, true
}

// Filter selects episodes; an empty Task or Track, or a nil Seed or Repeat,
// matches any.
type Filter struct {
	Task, Track, Model, Variant string
	Seed, Repeat                *int
}

// Match reports whether e passes the filter.
func (f Filter) Match(e Entry) bool {
	return (f.Task == "" || f.Task == e.Task) && (f.Track == "" || f.Track == e.Track) && (f.Model == "" || f.Model == e.Model) &&
		(f.Variant == "" || f.Variant == e.Variant) &&
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
	folder := record.TrajectoryFolder(e.Task, e.Track, e.Model, e.Variant, e.Model != "")
	return filepath.Join(dir, folder, record.TrajectoryFile(e.Seed, e.Repeat))
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
