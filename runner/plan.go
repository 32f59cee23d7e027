package runner

import (
	"bench/record"
	"bench/tasks"
)

// Job is one planned episode: a task, a track word, the model to ask ("" in
// a run that calls none), the variant of the run's dimensions ("" in a run
// without; record.Episode.Variant), a seed and which use of that seed it
// is (Repeat 0 for the first, k for its k-th twin).
type Job struct {
	Task    tasks.Task
	Track   string
	Model   string
	Variant string
	Seed    int
	Repeat  int
}

// Key identifies the job within a run; it equals record.Episode.Key of the
// episode the job produces.
func (j Job) Key() string {
	return j.episode().Key()
}

// episode is the job's names on an episode record: what the episode and
// its trajectory are filed under.
func (j Job) episode() record.Episode {
	return record.Episode{Task: j.Task.Name, Track: j.Track, Model: j.Model, Variant: j.Variant, Seed: j.Seed, Repeat: j.Repeat}
}

// twinKey names the job's twin group: the jobs of the same task, track,
// model, variant and seed, which run on the same server.
func (j Job) twinKey() string {
	return record.Episode{Task: j.Task.Name, Track: j.Track, Model: j.Model, Variant: j.Variant, Seed: j.Seed}.Key()
}

// shardKey names the jobs that a shard keeps together: the same task,
// model, variant and seed on every track and every repeat, so that the
// paired tracks (McNemar) and the twins of a merged report pair as in one
// run.
func (j Job) shardKey() string {
	return record.Episode{Task: j.Task.Name, Model: j.Model, Variant: j.Variant, Seed: j.Seed}.Key()
}

// PlanVariants returns every episode of a run in a stable dispatch order:
// seed position by seed position, and within one, task by task, model by
// model, variant by variant (record.Run.Variants, the run's dimensions),
// track by track, so that a run stopped early still holds whole (task,
// seed) pairs and the tracks of one task, model, variant and seed run one
// after the other. A run that calls no model has the one model "", a run
// without dimensions the one variant "".
//
// A seed that appears again in seeds is a twin run: its Repeat counts the
// earlier uses of the same seed.
func PlanVariants(ts []tasks.Task, tracks, models, variants []string, seeds []int) []Job {
	jobs := make([]Job, 0, len(ts)*len(tracks)*len(models)*len(variants)*len(seeds))
	uses := make(map[int]int, len(seeds))
	for _, seed := range seeds {
		repeat := uses[seed]
		uses[seed]++
		for _, t := range ts {
			for _, m := range models {
				for _, v := range variants {
					for _, tr := range tracks {
						jobs = append(jobs, Job{Task: t, Track: tr, Model: m, Variant: v, Seed: seed, Repeat: repeat})
					}
				}
			}
		}
	}
	return jobs
}

// Pending returns the jobs of plan that have no finished episode in done,
// in plan order. An episode stopped by an interrupt, or lost to the
// infrastructure (record.Episode.Lost), is not finished: it is redone on
// resume. An episode that ended on the model's own error is kept.
func Pending(plan []Job, done []record.Episode) []Job {
	finished := make(map[string]bool, len(done))
	for _, ep := range done {
		if Finished(ep) {
			finished[ep.Key()] = true
		}
	}
	var out []Job
	for _, j := range plan {
		if !finished[j.Key()] {
			out = append(out, j)
		}
	}
	return out
}

// Finished reports whether an episode on disk stands as the result of its
// job: it was neither interrupted nor lost to the infrastructure.
func Finished(ep record.Episode) bool {
	return ep.ExitReason != record.ExitInterrupted && !ep.Lost()
}
