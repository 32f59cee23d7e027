package record

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// trajectoryCheck holds, for one run folder, what judging its episodes
// against their trajectories needs: which trajectory files each folder of
// trajectories holds, listed once per folder, not per episode. It is safe
// for the decoding goroutines of a scan to use at once.
type trajectoryCheck struct {
	dir string
	run Run

	mu      sync.RWMutex
	folders map[uint64][]*listing // by the hash of a task, track, model and variant (outcomeLine.cellHash)
}

// listing is the trajectory files of one folder, by seed and repeat.
type listing struct {
	names [4]string // the task, track, model and variant whose folder it is
	path  string
	once  sync.Once
	files map[seedRepeat]bool
}

// seedRepeat names a trajectory file within its folder.
type seedRepeat struct{ seed, repeat int }

// newTrajectoryCheck returns the check of the run folder dir; with dir ""
// (episodes not read from a folder) it checks nothing.
func newTrajectoryCheck(dir string, run Run) *trajectoryCheck {
	return &trajectoryCheck{dir: dir, run: run, folders: map[uint64][]*listing{}}
}

// judge returns the verdict of the episode of line l: its line's
// (LineVerdict), with a pass whose trajectory digest was recorded made
// inconsistent when the file is gone or differs from the digest; and
// whether its trajectory file is missing. A lost episode's trajectory is
// not looked at.
func (c *trajectoryCheck) judge(l *outcomeLine) (v Verdict, missing bool) {
	v = LineVerdict(l.passed, l.testsPassed, l.testsTotal, ExitReason(l.exitReason), ErrorKind(l.errorKind), l.gradingTimedOut)
	if c == nil || c.dir == "" || v.Status == StatusLost {
		return v, false
	}
	f := c.folder(l)
	if !f.holds(l.seed, l.repeat) {
		if v.Pass() && len(l.trajectorySHA256) > 0 {
			v = Verdict{StatusInconsistent, FlawTrajectoryMissing}
		}
		return v, true
	}
	if !v.Pass() || len(l.trajectorySHA256) == 0 {
		return v, false
	}
	path := filepath.Join(f.path, TrajectoryFile(l.seed, l.repeat))
	switch edited, err := trajectoryEdited(path, string(l.trajectorySHA256)); {
	case errors.Is(err, fs.ErrNotExist):
		return Verdict{StatusInconsistent, FlawTrajectoryMissing}, true
	case err != nil || edited:
		return Verdict{StatusInconsistent, FlawTrajectoryEdited}, false
	}
	return v, false
}

// folder returns the listing of the trajectory folder of l's task, track,
// model and variant (the model's folder only in a run of several models,
// the variant's only in a run with dimensions), as TrajectoryRel puts it:
// found by l.cellHash, which the line's decoding made, under a read lock
// (every line looks one up, from every decoding goroutine).
func (c *trajectoryCheck) folder(l *outcomeLine) *listing {
	c.mu.RLock()
	f := c.find(l)
	c.mu.RUnlock()
	if f != nil {
		return f
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.find(l); f != nil {
		return f
	}
	names := [4]string{string(l.task), string(l.track), string(l.model), string(l.variant)}
	rel := TrajectoryFolder(names[0], names[1], names[2], names[3], c.run.SeveralModels())
	f = &listing{names: names, path: filepath.Join(c.dir, rel)}
	c.folders[l.cellHash] = append(c.folders[l.cellHash], f)
	return f
}

// find returns the listing of l's names, nil when there is none yet.
func (c *trajectoryCheck) find(l *outcomeLine) *listing {
	for _, f := range c.folders[l.cellHash] {
		if f.names[0] == string(l.task) && f.names[1] == string(l.track) && f.names[2] == string(l.model) && f.names[3] == string(l.variant) {
			return f
		}
	}
	return nil
}

// holds reports whether the folder holds the trajectory of seed and
// repeat, listing it on first use (a missing folder holds none).
func (f *listing) holds(seed, repeat int) bool {
	f.once.Do(func() {
		f.files = map[seedRepeat]bool{}
		entries, _ := os.ReadDir(f.path)
		for _, e := range entries {
			if s, r, ok := ParseTrajectoryName(e.Name()); ok {
				f.files[seedRepeat{s, r}] = true
			}
		}
	})
	return f.files[seedRepeat{seed, repeat}]
}

// ParseTrajectoryName reads the seed and repeat of a trajectory's file
// name, seed-<s>[-r<k>].jsonl, as TrajectoryName writes it (and only so:
// "seed-01.jsonl" names no episode). Every reader of the names on disk
// asks it.
func ParseTrajectoryName(name string) (seed, repeat int, ok bool) {
	rest, ok := strings.CutPrefix(name, "seed-")
	if !ok {
		return 0, 0, false
	}
	if rest, ok = strings.CutSuffix(rest, ".jsonl"); !ok {
		return 0, 0, false
	}
	seedText, repeatText := rest, "0"
	if i := strings.LastIndex(rest, "-r"); i > 0 {
		seedText, repeatText = rest[:i], rest[i+2:]
	}
	seed, err1 := strconv.Atoi(seedText)
	repeat, err2 := strconv.Atoi(repeatText)
	if err1 != nil || err2 != nil || TrajectoryFile(seed, repeat) != name {
		return 0, 0, false
	}
	return seed, repeat, true
}

// trajectoryEdited reports whether the file at path differs from the
// recorded hex SHA-256 digest (bare or as "sha256:<hex>", in either case);
// an error wraps fs.ErrNotExist when the file is not there.
func trajectoryEdited(path, digest string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, *buf); err != nil { // the file's WriteTo would take a buffer of its own
		return false, err
	}
	return !SameDigest(hex.EncodeToString(h.Sum(nil)), digest), nil
}

// SameDigest reports whether sum, a SHA-256 in lower-case hex, is the
// digest recorded: in hex of either case, with or without the "sha256:"
// prefix of the tasks' checksums. Every check of a recorded digest asks
// it, so that a line that one accepts no other refuses.
func SameDigest(sum, recorded string) bool {
	return sum == strings.TrimPrefix(strings.ToLower(recorded), "sha256:")
}

// copyBuffers are the buffers trajectories are hashed through, one for
// each decoding goroutine at a time rather than one per file.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// nameKey appends to dst a key for the names of a task, track and model:
// each after its length, so that no two lists of names share a key.
func nameKey(dst []byte, names ...[]byte) []byte {
	for _, n := range names {
		dst = append(binary.AppendUvarint(dst, uint64(len(n))), n...)
	}
	return dst
}
