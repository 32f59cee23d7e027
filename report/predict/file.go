package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FormatVersion is the version of the predictions file; Load refuses newer ones.
const FormatVersion = 1

// File is a predictions file, as bench predict writes it.
type File struct {
	Format       int          `json:"format"`
	BenchVersion string       `json:"bench_version,omitempty"`
	Predictions  []Prediction `json:"predictions"`
}

// ErrExists is returned by Save when the file exists and force is false.
var ErrExists = errors.New("predictions file exists")

// Save writes f to path (with Format set) through a temporary file and a
// rename. It refuses to replace an existing file unless force is set.
func Save(path string, f File, force bool) error {
	if !force {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s: %w; predictions are written once, before the run (use --force to replace it, or --out for another file)", path, ErrExists)
		}
	}
	f.Format = FormatVersion
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding predictions: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing predictions: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Load reads and checks a predictions file: every prediction names a task
// once, has a time, and predicts what its answers say.
func Load(path string) (File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{}, fmt.Errorf("predictions file %s does not exist (write one with bench predict before the run)", path)
	}
	if err != nil {
		return File{}, fmt.Errorf("reading predictions: %w", err)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("%s is not a valid predictions file: %v", path, err)
	}
	switch {
	case f.Format > FormatVersion:
		return File{}, fmt.Errorf("%s has format %d, newer than this bench reads (%d): upgrade bench", path, f.Format, FormatVersion)
	case f.Format < 1:
		return File{}, fmt.Errorf("%s has no \"format\" field: not written by bench predict", path)
	case len(f.Predictions) == 0:
		return File{}, fmt.Errorf("%s holds no predictions", path)
	}
	seen := map[string]bool{}
	for i, p := range f.Predictions {
		if err := p.check(); err != nil {
			return File{}, fmt.Errorf("%s: prediction %d: %v", path, i+1, err)
		}
		if seen[p.Task] {
			return File{}, fmt.Errorf("%s: task %s is predicted twice", path, p.Task)
		}
		seen[p.Task] = true
	}
	return f, nil
}

// check reports what is wrong with a prediction read from a file.
func (p Prediction) check() error {
	switch {
	case p.Task == "":
		return errors.New(`no "task"`)
	case p.Time.IsZero():
		return fmt.Errorf("task %s has no \"time\", so it cannot be shown to come before the run", p.Task)
	case p.Prediction != Predicts(p.Answers):
		return fmt.Errorf("task %s: answers %s predict %q, but the file says %q", p.Task, p.Answers, Predicts(p.Answers), p.Prediction)
	}
	return nil
}
