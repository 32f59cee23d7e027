package grade

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"bench/record"
)

// entryCost is what each file or folder counts toward the limit besides
// its size: a block, so that a million empty files are too many.
const entryCost = 4 << 10

// ParseSize reads a size such as 256MiB, 100MB, 2GiB or 4096 (bytes).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		n      float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.n
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 || math.IsInf(v*mult, 0) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q: expected a positive number of bytes, optionally with KB, MB, GB, KiB, MiB or GiB, e.g. 256MiB", s)
	}
	return int64(v * mult), nil
}

// errOverLimit stops measure's walk.
var errOverLimit = errors.New("over the workspace limit")

// overLimit says why dir is too large to grade, or "" when it is not:
// the sum of its entries' sizes (as stat reports them, sparse or not) and
// a block per entry exceeds limit (0: record.DefaultWorkspaceLimit). It
// stops reading at the limit.
func overLimit(dir string, limit int64) string {
	if limit <= 0 {
		limit = record.DefaultWorkspaceLimit
	}
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		total += entryCost
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		if total > limit {
			return errOverLimit
		}
		return nil
	})
	if errors.Is(err, errOverLimit) {
		return fmt.Sprintf("the workspace holds more than %s (its files' sizes, sparse or not, and %d KiB per entry), the --workspace-limit: not graded", size(limit), entryCost>>10)
	}
	return ""
}

// size is n bytes for a sentence.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// writeSparse writes data to a new file dst, leaving every all-zero block
// as a hole, so that a sparse workspace file stays sparse in the sealed
// copy.
func writeSparse(dst string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	const block = 4 << 10
	for at := 0; at < len(data) && err == nil; at += block {
		chunk := data[at:min(at+block, len(data))]
		if !allZero(chunk) {
			_, err = f.WriteAt(chunk, int64(at))
		}
	}
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
