package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdOnce holds the first agent reply after the first of an episode whose
// shard (a folder under sweep) has already finished an episode: the shard
// is then mid-run, with work done and work left. The shard's index is sent
// on the returned channel.
func holdOnce(sweep string) (func(task string, seed int) bool, <-chan int) {
	var mu sync.Mutex
	held := false
	ch := make(chan int, 1)
	return func(task string, seed int) bool {
		mu.Lock()
		defer mu.Unlock()
		if held {
			return false
		}
		k, finished := shardOf(sweep, task, seed)
		if k < 0 || finished == 0 {
			return false
		}
		held = true
		ch <- k
		return true
	}, ch
}

// shardOf finds which shard-k folder under sweep holds the agent's episode
// of task and seed (by its trajectory), and how many episodes that shard
// has finished; k is -1 when none does.
func shardOf(sweep, task string, seed int) (k, finished int) {
	matches, _ := filepath.Glob(filepath.Join(sweep, "shard-*", "trajectories", task, "agent", fmt.Sprintf("seed-%d.jsonl", seed)))
	if len(matches) != 1 {
		return -1, 0
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(matches[0]))))
	k, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "shard-"))
	if err != nil {
		return -1, 0
	}
	b, _ := os.ReadFile(filepath.Join(dir, "episodes.jsonl"))
	return k, strings.Count(string(b), "\n")
}

// TestSlurmSweepMatchesOneMachine submits the plan as a job array of 4
// shards to a real one-node Slurm cluster, exactly as deploy/README.md
// says, against the fake model over TCP. One shard is held mid-run; a
// second copy of the whole array is submitted then (its copy of the held
// shard must be refused, the others find their shards finished or
// running); the held shard's task is requeued with scontrol requeue and
// resumes. The report job, run by Slurm after every task succeeded, must
// then equal the plan run on one machine, episode for episode, with no
// episode lost or counted twice.
func TestSlurmSweepMatchesOneMachine(t *testing.T) {
	c := needSlurm(t)
	start := time.Now()
	base := t.TempDir()
	waitOne := startOneMachine(t)
	sweep := filepath.Join(base, "sweep")
	sweepFake := newFakeModel(t)
	hold, held := holdOnce(sweep)
	sweepFake.hold = hold
	srv := sweepFake.serve(t)
	env := c.env("BENCH="+bench(t), "OLLAMA_HOST="+srv.URL)
	submit := func() string {
		return c.run(t, base, env, "sbatch", append([]string{"--parsable", "--array=0-3", sbatchScript(), sweep}, plan...)...)
	}
	array := submit()

	var k int
	select {
	case k = <-held:
	case <-time.After(5 * time.Minute):
		t.Fatalf("no shard reached its held reply in 5 minutes:\n%s", logs(base))
	}
	t.Logf("shard-%d is held mid-run after %.1fs", k, time.Since(start).Seconds())

	second := submit()
	secondJobs := c.wait(t, 5*time.Minute, second)[second]
	for _, j := range secondJobs {
		if j["ArrayTaskId"] == strconv.Itoa(k) && (j["JobState"] != "FAILED" || j["ExitCode"] != "75:0") {
			t.Errorf("the second copy of shard-%d ran beside the first: %v", k, j)
		}
	}
	if log := readFile(t, filepath.Join(base, fmt.Sprintf("bench-sweep-%s_%d.out", second, k))); !strings.Contains(log, "one shard never runs twice at once") {
		t.Errorf("the second copy of shard-%d does not say why it stopped:\n%s", k, log)
	}

	requeue(t, c, array, k)
	report := reportJob(t, sweep, array)
	final := c.wait(t, 5*time.Minute, array, report)
	for _, j := range final[array] {
		if j["JobState"] != "COMPLETED" {
			t.Errorf("array task %s ended %s (exit %s):\n%s", j["ArrayTaskId"], j["JobState"], j["ExitCode"], logs(base))
		}
	}
	rep := final[report][0]
	if rep["JobState"] != "COMPLETED" {
		t.Errorf("the report job ended %s:\n%s", rep["JobState"], logs(base))
	}
	checkAfterAll(t, rep, final[array])
	requeued := c.task(t, array, k)
	if requeued["Restarts"] != "1" {
		t.Errorf("the held shard's task was restarted %s times, want 1", requeued["Restarts"])
	}
	if log := readFile(t, filepath.Join(base, fmt.Sprintf("bench-sweep-%s_%d.out", array, k))); !strings.Contains(log, "resuming shard") {
		t.Errorf("the requeued task did not resume its shard:\n%s", log)
	}
	one := waitOne()
	t.Logf("the sweep (and the one-machine run, if this test started it) took %.1fs", time.Since(start).Seconds())

	dirs := shardDirs(t, sweep, 4)
	sweepEps, redone := episodes(t, dirs...)
	oneEps, oneRedone := episodes(t, one)
	if redone != 1 || oneRedone != 0 {
		t.Errorf("%d episodes were redone in the sweep, %d on one machine; want the held one alone", redone, oneRedone)
	}
	sameEpisodes(t, oneEps, sweepEps)
	variety(t, oneEps)
	want := reportOf(t, one)
	sameReport(t, "bench report of the shards", reportOf(t, dirs...), want)
	sameReport(t, "the report job's report.json", decodeReport(t, []byte(readFile(t, filepath.Join(sweep, "report.json")))), want)
}

// requeue requeues array task k, as an operator does, and lets it start at
// once: Slurm holds a requeued job back for two minutes by default
// (BeginTime), which a test need not wait for.
func requeue(t *testing.T, c *cluster, array string, k int) {
	t.Helper()
	id := fmt.Sprintf("%s_%d", array, k)
	c.run(t, "", c.env(), "scontrol", "requeue", id)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		j := c.task(t, array, k)
		if j["JobState"] == "PENDING" {
			c.run(t, "", c.env(), "scontrol", "update", "JobId="+id, "StartTime=now")
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is not pending 2 minutes after scontrol requeue: %v", id, j)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reportJob is the id of the report job that the array's first task
// submitted, as it recorded it in the sweep folder.
func reportJob(t *testing.T, sweep, array string) string {
	t.Helper()
	marker := filepath.Join(sweep, ".report-"+array)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if b, err := os.ReadFile(marker); err == nil && strings.TrimSpace(string(b)) != "" {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			t.Fatalf("no report job recorded in %s", marker)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkAfterAll fails t unless the report job started after every task ended.
func checkAfterAll(t *testing.T, report job, tasks []job) {
	t.Helper()
	started, err := time.Parse("2006-01-02T15:04:05", report["StartTime"])
	if err != nil {
		t.Fatalf("the report job's start time: %v", err)
	}
	for _, j := range tasks {
		ended, err := time.Parse("2006-01-02T15:04:05", j["EndTime"])
		if err != nil || ended.After(started) {
			t.Errorf("array task %s ended at %s, after the report job started at %s", j["ArrayTaskId"], j["EndTime"], report["StartTime"])
		}
	}
}

// shardDirs are sweep/shard-0 … shard-(n-1), which must be all there is.
func shardDirs(t *testing.T, sweep string, n int) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(sweep, "shard-*"))
	if len(all) != n {
		t.Fatalf("%s holds %v, want %d shard folders", sweep, all, n)
	}
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = filepath.Join(sweep, "shard-"+strconv.Itoa(i))
	}
	return dirs
}

// logs is every job log in dir, for failure messages.
func logs(dir string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "*.out"))
	more, _ := filepath.Glob(filepath.Join(dir, "sweep", "*.out"))
	for _, f := range append(files, more...) {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "== %s\n%s\n", f, data)
	}
	return b.String()
}
