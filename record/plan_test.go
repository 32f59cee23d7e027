package record_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// TestPlanIsTheRunners: for plans of every shape — tasks, tracks, one or
// several models, repeated seeds, shards — record's plan holds exactly the
// jobs the runner plans and deals to the shard, and counts them per cell.
func TestPlanIsTheRunners(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		nTasks, nModels := 1+rng.IntN(4), 1+rng.IntN(3)
		run := record.Run{Tracks: []string{"workflow", "agent", "oracle"}[:1+rng.IntN(3)]}
		var ts []tasks.Task
		for k := range nTasks {
			name := fmt.Sprintf("t%d", k)
			ts = append(ts, tasks.Task{Name: name})
			run.Tasks = append(run.Tasks, record.TaskRef{Name: name})
		}
		models := []string{""}
		if nModels > 1 || rng.IntN(2) == 0 {
			models = nil
			for k := range nModels {
				models = append(models, fmt.Sprintf("m%d", k))
				run.Models = append(run.Models, record.ModelRef{Name: fmt.Sprintf("m%d", k)})
			}
			if nModels == 1 {
				run.Model, run.Models = "m0", nil // a run from before the models list
			}
		}
		pool := []int{0, 1, 2, 3} // small seeds, as bench plans them (held by the seed), or any
		if rng.IntN(3) == 0 {
			pool = []int{-7, 2, 1 << 40, 5000}
		}
		for range 1 + rng.IntN(6) {
			run.Seeds = append(run.Seeds, pool[rng.IntN(len(pool))])
		}
		if rng.IntN(2) == 0 {
			n := 1 + rng.IntN(4)
			run.Shard = &record.Shard{Index: 1 + rng.IntN(n), Count: n}
		}
		jobs := runner.Shard(runner.PlanVariants(ts, run.Tracks, models, []string{""}, run.Seeds), run.Shard)
		plan := run.Plan()
		want := map[[3]string]int{}
		for _, j := range jobs {
			if !plan.Holds(j.Task.Name, j.Track, j.Model, j.Variant, j.Seed, j.Repeat) {
				t.Fatalf("case %d: the runner plans %s, the record's plan does not hold it", i, j.Key())
			}
			want[[3]string{j.Task.Name, j.Track, j.Model}]++
		}
		total := 0
		for _, c := range plan.Cells() {
			if c.Episodes != want[[3]string{c.Task, c.Track, c.Model}] {
				t.Fatalf("case %d: cell %s/%s/%s counts %d, the runner plans %d", i, c.Task, c.Track, c.Model, c.Episodes, want[[3]string{c.Task, c.Track, c.Model}])
			}
			total += c.Episodes
		}
		if total != len(jobs) {
			t.Fatalf("case %d: the cells count %d, the runner plans %d", i, total, len(jobs))
		}
		if plan.Holds("t0", run.Tracks[0], models[0], "", 99, 0) || plan.Holds("t0", run.Tracks[0], models[0], "", -1, 0) || plan.Holds("t0", run.Tracks[0], models[0], "", run.Seeds[0], 9) || plan.Holds("nope", run.Tracks[0], models[0], "", run.Seeds[0], 0) {
			t.Fatalf("case %d: the plan holds an episode it has not", i)
		}
	}
}
