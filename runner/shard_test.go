package runner

import (
	"slices"
	"testing"

	"bench/record"
	"bench/tasks"
)

func TestShardsCoverThePlanOnceAndBalanced(t *testing.T) {
	ts := []tasks.Task{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	plan := PlanVariants(ts, []string{"workflow", "agent"}, []string{"m1", "m2"}, []string{""}, []int{1, 2, 1})
	seen := map[string]int{}
	var sizes []int
	for i := 1; i <= 3; i++ {
		part := Shard(plan, &record.Shard{Index: i, Count: 3})
		sizes = append(sizes, len(part))
		groups := map[string]int{}
		for _, j := range part {
			seen[j.Key()]++
			groups[j.shardKey()]++
		}
		for k, n := range groups {
			if n != 2*2 && n != 2 { // seed 1: both tracks, both repeats; seed 2: both tracks
				t.Errorf("shard %d holds %d jobs of %s: a group was split", i, n, k)
			}
		}
	}
	if len(seen) != len(plan) {
		t.Fatalf("shards hold %d distinct jobs, plan has %d", len(seen), len(plan))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s is in %d shards", k, n)
		}
	}
	if slices.Max(sizes)-slices.Min(sizes) > 4 {
		t.Errorf("unbalanced shards: %v", sizes)
	}
}

func TestParseShardRefusesNonsense(t *testing.T) {
	for _, s := range []string{"", "1", "0/3", "4/3", "a/b", "1/0", "-1/2"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) accepted", s)
		}
	}
	sh, err := ParseShard(" 2/3 ")
	if err != nil || *sh != (record.Shard{Index: 2, Count: 3}) {
		t.Errorf("ParseShard(2/3) = %v, %v", sh, err)
	}
}
