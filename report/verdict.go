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
}

// named counts paths and keeps the first firstFewMax of them.
type named struct {
	n     int
	first []string
}

// add counts path, keeping it if it is among the first.
func (x *named) add(path string) {
	x.n++
	if len(x.first) < firstFewMax {
		x.first = append(x.first, path)
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
func (k *checks) verdict(dir string, ep *record.Episode) verdict {
	var v verdict
	if ep.GradingTimedOut {
		k.timeouts++
	}
	if path := trajectoryPath(dir, ep); path != "" {
		switch edited, err := trajectoryEdited(path, ep.TrajectorySHA256); {
		case errors.Is(err, fs.ErrNotExist):
			k.missing.add(path)
		case edited:
			k.edited.add(path)
			v.edited = true
		}
	}
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

// trajectoryEdited reports whether the file at path differs from the
// recorded hex SHA-256 digest; with no digest recorded it only checks that
// the file is there (an error wrapping fs.ErrNotExist when it is not).
func trajectoryEdited(path, digest string) (bool, error) {
	if digest == "" {
		_, err := os.Stat(path)
		return false, err
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return !strings.EqualFold(hex.EncodeToString(h.Sum(nil)), digest), nil
}

// trajectoryPath is the trajectory file of an episode of the run folder
// dir, or "" when the run was not read from a folder.
func trajectoryPath(dir string, ep *record.Episode) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, record.TrajectoriesDir, ep.Task, ep.Track, record.TrajectoryName(ep.Seed, ep.Repeat)+".jsonl")
}
