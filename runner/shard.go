package runner

import (
	"fmt"
	"strconv"
	"strings"

	"bench/record"
)

// ParseShard reads --shard i/n: part i (1 to n) of n.
func ParseShard(s string) (*record.Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("bad --shard %q: give i/n, part i of n, such as 1/3 (on Kubernetes: $((JOB_COMPLETION_INDEX+1))/n)", s)
	}
	if n < 1 || i < 1 || i > n {
		return nil, fmt.Errorf("bad --shard %q: i must be between 1 and n, and n at least 1 (parts are numbered from 1)", s)
	}
	return &record.Shard{Index: i, Count: n}, nil
}

// Shard returns the jobs of plan that part sh holds, in plan order; a nil
// shard holds them all. The plan's groups of one task, model and seed
// (every track and repeat of it) are dealt round-robin in the order they
// first appear: the split is the same on every machine given the same
// plan, every job falls in exactly one part, and parts differ by at most
// one group.
func Shard(plan []Job, sh *record.Shard) []Job {
	if sh == nil || sh.Count <= 1 {
		return plan
	}
	part := map[string]int{}
	var out []Job
	for _, j := range plan {
		k := j.shardKey()
		p, ok := part[k]
		if !ok {
			p = len(part) % sh.Count
			part[k] = p
		}
		if p == sh.Index-1 {
			out = append(out, j)
		}
	}
	return out
}

// orList is xs, or else when xs is empty.
func orList(xs, otherwise []string) []string {
	if len(xs) == 0 {
		return otherwise
	}
	return xs
}
