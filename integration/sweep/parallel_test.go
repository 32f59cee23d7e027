package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// gnuParallel holds the path of GNU parallel, found or installed once.
var gnuParallel struct {
	once   sync.Once
	path   string
	cannot string
}

// needParallel returns GNU parallel's path, installing Debian's package
// when it is missing and this is root with apt-get; without it the test
// skips, or fails when BENCH_PARALLEL_REQUIRED=1; it skips in short mode.
func needParallel(t *testing.T) string {
	t.Helper()
	skipInShortMode(t)
	gnuParallel.once.Do(func() { gnuParallel.path, gnuParallel.cannot = findParallel() })
	if gnuParallel.cannot != "" {
		unavailable(t, EnvParallelRequired, gnuParallel.cannot)
	}
	return gnuParallel.path
}

func findParallel() (path, cannot string) {
	if p, err := exec.LookPath("parallel"); err == nil {
		out, _ := exec.Command(p, "--version").Output()
		if !bytes.Contains(out, []byte("GNU parallel")) {
			return "", p + " is not GNU parallel (moreutils has a parallel of its own)"
		}
		return p, ""
	}
	if os.Geteuid() != 0 {
		return "", "no GNU parallel, and installing it needs root"
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return "", "no GNU parallel, and no apt-get to install it with"
	}
	fmt.Fprintln(os.Stderr, "sweep: installing GNU parallel (Debian's parallel)")
	install := exec.Command("sh", "-c", "apt-get install -y -qq parallel || { apt-get update -qq && apt-get install -y -qq parallel; }")
	install.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := install.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("apt-get install parallel: %v\n%s", err, out)
	}
	p, err := exec.LookPath("parallel")
	if err != nil {
		return "", "apt-get installed parallel, but it is not on PATH"
	}
	return p, ""
}

// readmeRecipe is the GNU parallel line of deploy/README.md and the report
// line after it, as words.
func readmeRecipe(t *testing.T) (run, report []string) {
	t.Helper()
	for line := range strings.Lines(readFile(t, filepath.Join(suite.root, "deploy", "README.md"))) {
		words := strings.Fields(line)
		switch {
		case len(words) > 0 && words[0] == "parallel" && run == nil:
			run = words
		case run != nil && len(words) > 1 && words[0] == "deploy/bench-sweep" && words[1] == "report":
			return run, words
		}
	}
	t.Fatal("deploy/README.md has no `parallel …` line followed by a `deploy/bench-sweep report …` line")
	return nil, nil
}

// localRecipe is the README's recipe made to run here: the script by its
// path, the sweep folder sweep, plan instead of the README's flags (those
// after --host {2}), and hosts instead of the README's servers (the words
// after the second :::). It fails t if the line has changed shape.
func localRecipe(t *testing.T, words []string, sweep string, hosts []string) []string {
	t.Helper()
	lists := []int{}
	for i, w := range words {
		if w == ":::" {
			lists = append(lists, i)
		}
	}
	host := slices.Index(words, "--host")
	if len(lists) != 2 || host < 0 || host+1 >= lists[0] || words[host+1] != "{2}" ||
		!slices.Equal(words[lists[0]+1:lists[1]], []string{"0", "1", "2"}) || len(words)-lists[1]-1 != len(hosts) {
		t.Fatalf("the README's parallel line is not `parallel … shard SWEEP_DIR {1} 3 --host {2} FLAGS ::: 0 1 2 ::: 3 SERVERS`: %q", words)
	}
	var out []string
	for _, w := range words[1 : host+2] {
		switch w {
		case "deploy/bench-sweep":
			w = sweepScript()
		case "results/sweep":
			w = sweep
		}
		out = append(out, w)
	}
	out = append(append(out, plan...), words[lists[0]:lists[1]+1]...)
	return append(out, hosts...)
}

// parallelRun is one run of GNU parallel.
type parallelRun struct {
	code   int
	stderr string
}

// TestParallelSweepMatchesOneMachine runs deploy/README.md's GNU parallel
// recipe as written (the plan, the folder and the servers aside): three
// shards, each against a fake server of its own. One shard's bench is
// killed (SIGKILL, as a machine that dies) mid-run; parallel reports the
// job failed; the same line run again resumes that shard and finds the
// others finished; the README's report line merges them. The result must
// equal the plan run on one machine, episode for episode.
func TestParallelSweepMatchesOneMachine(t *testing.T) {
	parallel := needParallel(t)
	start := time.Now()
	base := t.TempDir()
	waitOne := startOneMachine(t)

	sweep := filepath.Join(base, "sweep")
	fake := newFakeModel(t)
	hold, held := holdOnce(sweep)
	fake.hold = hold
	var hosts []string
	for range 3 {
		hosts = append(hosts, fake.serve(t).URL)
	}
	words, reportWords := readmeRecipe(t)
	args := localRecipe(t, words, sweep, hosts)
	env := append(os.Environ(), "BENCH="+bench(t))

	cmd := exec.Command(parallel, args...)
	cmd.Dir, cmd.Env = base, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan parallelRun, 1)
	go func() { exited <- result(cmd.Wait(), &stderr) }()
	var k int
	select {
	case k = <-held:
	case r := <-exited:
		t.Fatalf("parallel ended (exit %d) before a shard reached its held reply:\n%s", r.code, r.stderr)
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill() //nolint:errcheck // the run's output tells
		t.Fatalf("no shard reached its held reply in 5 minutes:\n%s", (<-exited).stderr)
	}
	pid := descendant(t, cmd.Process.Pid, filepath.Join(sweep, "shard-"+strconv.Itoa(k)))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed shard-%d's bench (pid %d) mid-run after %.1fs", k, pid, time.Since(start).Seconds())
	if r := <-exited; r.code != 1 {
		t.Errorf("parallel with one job killed: exit %d, want 1 (one job failed)\n%s", r.code, r.stderr)
	}

	again := exec.Command(parallel, args...)
	again.Dir, again.Env = base, env
	var stderr2 bytes.Buffer
	again.Stderr = &stderr2
	if r := result(again.Run(), &stderr2); r.code != 0 || !strings.Contains(r.stderr, fmt.Sprintf("resuming shard %d of 3", k+1)) {
		t.Fatalf("the recipe run again: exit %d, want 0 and shard %d resumed:\n%s", r.code, k+1, r.stderr)
	}
	for i, h := range hosts {
		if runJSON := readFile(t, filepath.Join(sweep, fmt.Sprintf("shard-%d", i), "run.json")); !strings.Contains(runJSON, `"`+h+`"`) {
			t.Errorf("shard-%d did not run against its own server %s", i, h)
		}
	}
	reportArgs := slices.Clone(reportWords[1:])
	for i, w := range reportArgs {
		if w == "results/sweep" {
			reportArgs[i] = sweep
		}
	}
	rep := exec.Command(sweepScript(), reportArgs...)
	rep.Dir, rep.Env = base, env
	if out, err := rep.CombinedOutput(); err != nil {
		t.Fatalf("the README's report line: %v\n%s", err, out)
	}
	one := waitOne()
	t.Logf("the sweep (and the one-machine run, if this test started it) took %.1fs", time.Since(start).Seconds())

	dirs := shardDirs(t, sweep, 3)
	sweepEps, redone := episodes(t, dirs...)
	oneEps, _ := episodes(t, one)
	if redone != 0 {
		t.Errorf("%d interrupted episodes were redone; a killed bench leaves none", redone)
	}
	sameEpisodes(t, oneEps, sweepEps)
	variety(t, oneEps)
	want := reportOf(t, one)
	sameReport(t, "bench report of the shards", reportOf(t, dirs...), want)
	sameReport(t, "the README's report line's report.json", decodeReport(t, []byte(readFile(t, filepath.Join(sweep, "report.json")))), want)
}

// result is the exit status err of a command that has ended, and its stderr.
func result(err error, stderr *bytes.Buffer) parallelRun {
	r := parallelRun{stderr: stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.code = exit.ExitCode()
	} else if err != nil {
		r.code = -1
		r.stderr += err.Error()
	}
	return r
}

// descendant is the pid of the process below root (one the test started)
// with arg among its arguments; it fails t if there is not exactly one.
func descendant(t *testing.T, root int, arg string) int {
	t.Helper()
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces, so read after the last ')'.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 {
			parent[pid], _ = strconv.Atoi(fields[1])
		}
	}
	var found []int
	for pid := range parent {
		below := false
		for p := parent[pid]; p > 1 && !below; p = parent[p] {
			below = p == root
		}
		if !below {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if slices.Contains(strings.Split(string(cmdline), "\x00"), arg) {
			found = append(found, pid)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d processes below pid %d run with %s: %v", len(found), root, arg, found)
	}
	return found[0]
}
