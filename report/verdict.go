package report

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"bench/record"
)

// verdict is what the report makes of one episode's recorded "passed".
type verdict struct {
	pass         bool // counted as a pass
	inconsistent bool // the line says passed, but its test counts disagree
	edited       bool // its trajectory was edited after the run
}

// checks counts, over all inputs, the episodes whose record the report does
// not take at its word, and names a few of them.
type checks struct {
	lost         int   // infrastructure errors, not counted
	duplicates   int   // episodes of a run given twice, counted once
	inconsistent int   // passed, but the test counts disagree
	timeouts     int   // grading runs that timed out
	edited       named // trajectories whose digest differs from the recorded one
	missing      named // trajectory files that are not there

	listed  map[string]map[string]bool // the files of each trajectory folder seen
	folders map[folderKey]string       // the trajectory folder of each task, track and model of a run folder
	name    []byte                     // the name trajectoryFile returns, reused
}

// folderKey identifies a trajectory folder: the run folder, and the task,
// track and model of its episodes.
type folderKey struct{ dir, task, track, model string }

// named counts paths and keeps the first firstFewMax of them.
type named struct {
	n     int
	first []string
}

// add counts the file name of folder, keeping its path if it is among the
// first.
func (x *named) add(folder string, name []byte) {
	x.n++
	if len(x.first) < firstFewMax {
		x.first = append(x.first, filepath.Join(folder, string(name)))
	}
}

// String joins the first paths, saying how many more there are.
func (x named) String() string {
	s := strings.Join(x.first, ", ")
	if more := x.n - len(x.first); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

// verdict derives whether an episode passed: its line must say so, its test
// counts must agree (all of at least one test passed), its grading must not
// have timed out, and its trajectory, when its digest was recorded and the
// file is there, must be the file the run wrote.
func (k *checks) verdict(dir string, run record.Run, ep *record.Outcome) verdict {
	var v verdict
	if ep.GradingTimedOut {
		k.timeouts++
	}
	v.edited = dir != "" && k.trajectory(dir, run, ep)
	if !ep.Passed {
		return v
	}
	if ep.TestsTotal <= 0 || ep.TestsPassed != ep.TestsTotal {
		k.inconsistent++
		v.inconsistent = true
		return v
	}
	v.pass = !ep.GradingTimedOut && !v.edited
	return v
}

// trajectory checks the trajectory file of an episode of the run folder
// dir: it counts the file as missing, or as edited after the run when its
// digest was recorded and differs (then it returns true).
func (k *checks) trajectory(dir string, run record.Run, ep *record.Outcome) (edited bool) {
	folder, name := k.trajectoryFile(dir, run, ep)
	if ep.TrajectorySHA256 == "" {
		if !k.present(folder, name) {
			k.missing.add(folder, name)
		}
		return false
	}
	edited, err := trajectoryEdited(filepath.Join(folder, string(name)), ep.TrajectorySHA256)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		k.missing.add(folder, name)
	case edited:
		k.edited.add(folder, name)
	}
	return edited
}

// trajectoryEdited reports whether the file at path differs from the
// recorded hex SHA-256 digest (bare or as "sha256:<hex>") (an error wrapping fs.ErrNotExist when it is
// not there).
func trajectoryEdited(path, digest string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	digest = strings.TrimPrefix(strings.ToLower(digest), "sha256:") // the form of the tasks' checksums, too
	return hex.EncodeToString(h.Sum(nil)) != digest, nil
}

// present reports whether the folder holds a file name, listing each
// folder once: one system call per task and track, not per episode.
func (k *checks) present(folder string, name []byte) bool {
	if k.listed == nil {
		k.listed = map[string]map[string]bool{}
	}
	names, ok := k.listed[folder]
	if !ok {
		names = map[string]bool{}
		entries, _ := os.ReadDir(folder) // a missing folder: every file is missing
		for _, e := range entries {
			names[e.Name()] = true
		}
		k.listed[folder] = names
	}
	return names[string(name)]
}

// trajectoryFile is the folder and name of the trajectory file of an
// episode of the run folder dir (of run, which says whether trajectories
// sit in a folder per model): the folder is joined once per task, track
// and model, not for each of a million episodes, and the name is valid
// until the next call.
func (k *checks) trajectoryFile(dir string, run record.Run, ep *record.Outcome) (folder string, name []byte) {
	k.name = append(record.AppendTrajectoryName(k.name[:0], ep.Seed, ep.Repeat), ".jsonl"...)
	key := folderKey{dir, ep.Task, ep.Track, ep.Model}
	folder, ok := k.folders[key]
	if !ok {
		p := filepath.Join(dir, record.TrajectoryRel(run, record.Episode{Task: ep.Task, Track: ep.Track, Model: ep.Model, Seed: ep.Seed, Repeat: ep.Repeat}))
		folder = filepath.Dir(p) // name is the rest of p: a file name, which filepath.Join leaves as it is
		if k.folders == nil {
			k.folders = map[folderKey]string{}
		}
		k.folders[key] = folder
	}
	return folder, k.name
}
