package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// cluster is the one-node Slurm cluster deploy/slurm/local-cluster started.
type cluster struct {
	dir  string // its folder: slurm.conf, the daemons' logs
	conf string // SLURM_CONF
}

// slurm holds the suite's cluster, started by the first test that needs it.
var slurm struct {
	once   sync.Once
	c      *cluster
	cannot string // why this machine cannot run a cluster; "" if it can
	err    error  // the cluster failed to start
}

// needSlurm returns the suite's cluster, starting it on first use; without
// one the test skips, or fails when BENCH_SLURM_REQUIRED=1; it skips in
// short mode.
func needSlurm(t *testing.T) *cluster {
	t.Helper()
	skipInShortMode(t)
	slurm.once.Do(startCluster)
	if slurm.cannot != "" {
		unavailable(t, EnvSlurmRequired, slurm.cannot)
	}
	if slurm.err != nil {
		t.Fatal(slurm.err)
	}
	return slurm.c
}

// startCluster runs local-cluster start; exit status 3 says that this
// machine cannot run one (not root, nothing to install the packages with).
func startCluster() {
	start := time.Now()
	dir := filepath.Join(suite.tmp, "slurm")
	cmd := exec.Command(filepath.Join(suite.root, "deploy", "slurm", "local-cluster"), "start", dir)
	cmd.Env = append(os.Environ(), "LOCAL_CLUSTER_OWNER="+strconv.Itoa(os.Getpid()))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 3:
		slurm.cannot = strings.TrimSpace(stderr.String())
		return
	case err != nil:
		slurm.err = fmt.Errorf("local-cluster start: %v\n%s", err, stderr.String())
		return
	}
	c := &cluster{dir: dir}
	for line := range strings.Lines(string(out)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "SLURM_CONF="); ok {
			c.conf = v
		}
	}
	if c.conf == "" {
		slurm.err = fmt.Errorf("local-cluster start printed no SLURM_CONF: %q", out)
		return
	}
	slurm.c = c
	fmt.Fprintf(os.Stderr, "sweep: the Slurm cluster started in %.1fs\n", time.Since(start).Seconds())
}

// stopCluster stops the suite's cluster, if a test started one.
func stopCluster() {
	if slurm.c == nil {
		return
	}
	cmd := exec.Command(filepath.Join(suite.root, "deploy", "slurm", "local-cluster"), "stop", slurm.c.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "sweep: local-cluster stop: %v\n%s", err, out)
	}
}

// env is the environment of a Slurm command, and so of the jobs it submits:
// the cluster's configuration and extra (NAME=value) on top of this one.
func (c *cluster) env(extra ...string) []string {
	return append(append(os.Environ(), "SLURM_CONF="+c.conf), extra...)
}

// run runs a Slurm command in dir and returns its stdout.
func (c *cluster) run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// job is one job (or array task) as scontrol shows it.
type job map[string]string

// jobs lists the jobs of id (an array job: all its tasks), by JobId=.
func (c *cluster) jobs(t *testing.T, id string) []job {
	t.Helper()
	out := c.run(t, "", c.env(), "scontrol", "--oneliner", "show", "job", id)
	var js []job
	for line := range strings.Lines(out) {
		j := job{}
		for field := range strings.FieldsSeq(line) {
			if k, v, ok := strings.Cut(field, "="); ok {
				j[k] = v
			}
		}
		if j["JobId"] != "" {
			js = append(js, j)
		}
	}
	return js
}

// task is the array task of id with index k.
func (c *cluster) task(t *testing.T, id string, k int) job {
	t.Helper()
	for _, j := range c.jobs(t, id) {
		if j["ArrayTaskId"] == strconv.Itoa(k) {
			return j
		}
	}
	t.Fatalf("job %s has no array task %d", id, k)
	return nil
}

// finalStates are the states a job does not leave.
var finalStates = map[string]bool{"COMPLETED": true, "FAILED": true, "CANCELLED": true, "TIMEOUT": true, "OUT_OF_MEMORY": true, "NODE_FAIL": true, "BOOT_FAIL": true, "DEADLINE": true, "PREEMPTED": true}

// wait polls until every job of ids is in a final state, or fails t after limit.
func (c *cluster) wait(t *testing.T, limit time.Duration, ids ...string) map[string][]job {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		all, done := map[string][]job{}, true
		for _, id := range ids {
			js := c.jobs(t, id)
			all[id] = js
			for _, j := range js {
				done = done && finalStates[j["JobState"]]
			}
		}
		if done {
			return all
		}
		if time.Now().After(deadline) {
			t.Fatalf("the jobs did not end within %s: %v\nqueue:\n%s", limit, all, c.run(t, "", c.env(), "squeue"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
