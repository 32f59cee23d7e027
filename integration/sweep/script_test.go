package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"bench/internal/testsupport/exefile"
)

// These tests run deploy/bench-sweep and deploy/slurm/bench-sweep.sbatch
// with a fake bench (and a fake sbatch) that only records how it was
// called: the rules of a shard without a model, a cluster or a real run.

// fakeBenchText is the fake bench: it appends its arguments, one a line,
// then a line "--", to $FAKE_LOG; a new run (--shard and --out) leaves a
// run.json naming its part, as bench's does; FAKE_HOLD=FILE makes it wait
// until FILE exists; FAKE_CHILD=FILE leaves a child behind, whose pid is
// in FILE; report prints "report of" and its folders.
const fakeBenchText = `#!/bin/sh
printf '%s\n' "$@" -- >>"$FAKE_LOG"
if [ "$1" = report ]; then shift; [ "$1" != --format ] || shift 2; echo "report of $*"; exit 0; fi
out='' shard=''
while [ $# -gt 0 ]; do
	case $1 in --out) out=$2 ;; --shard) shard=$2 ;; esac
	shift
done
if [ -n "$out" ] && [ -n "$shard" ]; then
	mkdir -p "$out"
	printf '{\n  "backend": "ollama",\n  "shard": {\n    "index": %s,\n    "count": %s\n  }\n}\n' "${shard%/*}" "${shard#*/}" >"$out/run.json"
fi
if [ -n "${FAKE_CHILD:-}" ]; then sleep 60 & echo $! >"$FAKE_CHILD"; fi
while [ -n "${FAKE_HOLD:-}" ] && [ ! -e "$FAKE_HOLD" ]; do sleep 0.05; done
`

// fakeBench writes the fake bench into dir and returns its path.
func fakeBench(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fake-bench")
	exefile.Write(t, p, []byte(fakeBenchText))
	return p
}

// calls reads the fake's log: one argument list per call.
func calls(t *testing.T, log string) [][]string {
	t.Helper()
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var all [][]string
	var cur []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "--" {
			all, cur = append(all, cur), nil
			continue
		}
		cur = append(cur, l)
	}
	return all
}

// script runs a script with args and the environment env on top of this one.
type scriptRun struct {
	code   int
	stderr string
}

func runScript(t *testing.T, env []string, name string, args ...string) scriptRun {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	r := scriptRun{stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return r
}

// TestShardRunsThenResumes: the first time a shard is a new run of part
// k+1 of n into shard-k with every flag; after, --resume of it with only
// the flags --resume takes, quoting intact, and the server from
// OLLAMA_HOST unless --host was given.
func TestShardRunsThenResumes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	env := []string{"BENCH=" + fakeBench(t, dir), "FAKE_LOG=" + log, "OLLAMA_HOST=http://gpu7:11434"}
	sweep := filepath.Join(dir, "sweep")
	flags := []string{"--tasks", "leap_year", "--seeds=1,2", "--think", "--parallel", "3", "--timeout", "5m",
		"--keep-workspaces", "--tracks", "agent", "-f", "it's a \"value\"", "--retry-window=10s"}
	for range 2 {
		if r := runScript(t, env, sweepScript(), append([]string{"shard", sweep, "1", "3"}, flags...)...); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	}
	out := filepath.Join(sweep, "shard-1")
	got := calls(t, log)
	want := [][]string{
		append(append([]string{"run", "--shard", "2/3"}, flags...), "--out", out),
		{"run", "--resume", out, "--parallel", "3", "--timeout", "5m", "--keep-workspaces", "-f", "it's a \"value\"", "--retry-window=10s", "--host", "http://gpu7:11434"},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("bench was run as\n%q\nwant\n%q", got, want)
	}
	// With --host among the flags, the flag stands and OLLAMA_HOST is not added.
	hosted := append(slices.Clone(flags), "--host", "http://pool1:11434,http://pool2:11434")
	if r := runScript(t, env, sweepScript(), append([]string{"shard", sweep, "1", "3"}, hosted...)...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	last := calls(t, log)[2]
	if n := slices.Index(last, "--host"); n < 0 || last[n+1] != "http://pool1:11434,http://pool2:11434" || slices.Contains(last, "http://gpu7:11434") {
		t.Errorf("a resume with --host: %q", last)
	}
}

// TestShardRefusesWhatItSetsAndOtherSweeps: --out, --shard and --resume
// are the script's; a folder that holds another part of another n is
// refused, and so is a bad index; bench is never run for them.
func TestShardRefusesWhatItSetsAndOtherSweeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	env := []string{"BENCH=" + fakeBench(t, dir), "FAKE_LOG=" + log}
	sweep := filepath.Join(dir, "sweep")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"0", "2", "--out", "x"}, "give no --out"},
		{[]string{"0", "2", "-o=x"}, "give no --o"},
		{[]string{"0", "2", "--shard=1/2"}, "give no --shard"},
		{[]string{"0", "2", "--resume", "x"}, "give no --resume"},
		{[]string{"2", "2"}, "not below the number of shards"},
		{[]string{"-1", "2"}, "must be a number"},
		{[]string{"0", "0"}, "must be a number above 0"},
	} {
		r := runScript(t, env, sweepScript(), append([]string{"shard", sweep}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("shard %q: exit %d, %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if r := runScript(t, env, sweepScript(), "shard", sweep, "1", "4"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r := runScript(t, env, sweepScript(), "shard", sweep, "1", "3")
	if r.code != 2 || !strings.Contains(r.stderr, "holds another part than shard 2 of 3") {
		t.Errorf("shard 2 of 3 in a folder of shard 2 of 4: exit %d, %q", r.code, r.stderr)
	}
	if n := len(calls(t, log)); n != 1 {
		t.Errorf("bench was run %d times, want once (the shard of 4)", n)
	}
}

// TestOneShardNeverRunsTwiceAtOnce: while a shard runs (or a process it
// started lives on), a second copy of it stops at once with exit 75 and
// runs nothing; another shard runs meanwhile, and the shard runs again
// once all of the first copy has ended. The control: without flock the
// second copy runs beside the first.
func TestOneShardNeverRunsTwiceAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	release, child := filepath.Join(dir, "release"), filepath.Join(dir, "child")
	bench := fakeBench(t, dir)
	env := []string{"BENCH=" + bench, "FAKE_LOG=" + log}
	sweep := filepath.Join(dir, "sweep")
	first := exec.Command(sweepScript(), "shard", sweep, "0", "2")
	first.Env = append(os.Environ(), append(env, "FAKE_HOLD="+release, "FAKE_CHILD="+child)...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill() //nolint:errcheck // a failed test leaves nothing running
	waitFor(t, func() bool { return len(calls(t, log)) == 1 })

	r := runScript(t, env, sweepScript(), "shard", sweep, "0", "2")
	if r.code != 75 || !strings.Contains(r.stderr, "one shard never runs twice at once") {
		t.Errorf("a second copy beside the first: exit %d, %q; want 75", r.code, r.stderr)
	}
	if r := runScript(t, env, sweepScript(), "shard", sweep, "1", "2"); r.code != 0 {
		t.Errorf("another shard beside the first: exit %d, %q", r.code, r.stderr)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the first copy: %v", err)
	}
	if r := runScript(t, env, sweepScript(), "shard", sweep, "0", "2"); r.code != 75 {
		t.Errorf("a copy while a child of the first lives on: exit %d, %q; want 75", r.code, r.stderr)
	}
	b, _ := os.ReadFile(child)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("the fake's child: %q", b)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return syscall.Kill(pid, 0) != nil })
	if r := runScript(t, env, sweepScript(), "shard", sweep, "0", "2"); r.code != 0 || !strings.Contains(r.stderr, "resuming shard 1 of 2") {
		t.Errorf("the shard after the first copy ended: exit %d, %q", r.code, r.stderr)
	}
	if n := len(calls(t, log)); n != 3 {
		t.Errorf("bench was run %d times, want 3 (first, the other shard, the resume)", n)
	}

	// The control: with no flock on PATH the second copy runs beside the first.
	tools := toolsWithout(t, "flock")
	noLock := append(slices.Clone(env), "PATH="+tools, "FAKE_HOLD="+release+"-2")
	a := exec.Command(sweepScript(), "shard", sweep, "0", "2")
	a.Env = append(os.Environ(), noLock...)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer a.Process.Kill() //nolint:errcheck // as above
	waitFor(t, func() bool { return len(calls(t, log)) == 4 })
	r = runScript(t, append(noLock, "FAKE_HOLD="), sweepScript(), "shard", sweep, "0", "2")
	if r.code != 0 || !strings.Contains(r.stderr, "nothing stops a second copy") {
		t.Errorf("without flock: exit %d, %q; want the copy to run, with a warning", r.code, r.stderr)
	}
	os.WriteFile(release+"-2", nil, 0o644) //nolint:errcheck // Wait tells
	if err := a.Wait(); err != nil {
		t.Fatal(err)
	}
}

// toolsWithout is a folder of links to the commands the scripts use, all
// but the ones named: a PATH without them.
func toolsWithout(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range []string{"sh", "mkdir", "tr", "sed", "cat", "mv", "sleep", "flock"} {
		if slices.Contains(names, tool) {
			continue
		}
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReportMergesOnlyAWholeSweep: the report takes shard-0 … shard-(n-1)
// in that order (shard-10 after shard-9) when each is its part of one
// sweep of n, and refuses a sweep with a shard missing, one too many or
// one of another sweep.
func TestReportMergesOnlyAWholeSweep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	env := []string{"BENCH=" + fakeBench(t, dir), "FAKE_LOG=" + log}
	sweep := filepath.Join(dir, "sweep")
	var want []string
	for k := range 11 {
		if r := runScript(t, env, sweepScript(), "shard", sweep, strconv.Itoa(k), "11"); r.code != 0 {
			t.Fatal(r.stderr)
		}
		want = append(want, filepath.Join(sweep, fmt.Sprintf("shard-%d", k)))
	}
	r := runScript(t, env, sweepScript(), "report", sweep)
	if r.code != 0 {
		t.Fatalf("report: exit %d, %s", r.code, r.stderr)
	}
	all := calls(t, log)
	if got := all[len(all)-1]; !slices.Equal(got, append([]string{"report"}, want...)) {
		t.Errorf("the text report merged %q, want %q", got, want)
	}
	if got := all[len(all)-2]; !slices.Equal(got, append([]string{"report", "--format", "json"}, want...)) {
		t.Errorf("the JSON report merged %q, want %q", got, want)
	}
	if text := readFile(t, filepath.Join(sweep, "report.txt")); text != "report of "+strings.Join(want, " ")+"\n" {
		t.Errorf("report.txt: %q", text)
	}

	for _, c := range []struct {
		name  string
		spoil func(sweep string)
		want  string
	}{
		{"a shard missing", func(sweep string) { os.RemoveAll(filepath.Join(sweep, "shard-1")) }, "shard-0 is not shard 1 of 2"},
		{"a shard too many", func(sweep string) {
			os.CopyFS(filepath.Join(sweep, "shard-3"), os.DirFS(filepath.Join(sweep, "shard-2")))
		}, "shard-0 is not shard 1 of 4"},
		{"another sweep's shard", func(sweep string) {
			os.WriteFile(filepath.Join(sweep, "shard-1", "run.json"), []byte(`{"shard": {"index": 2, "count": 4}}`), 0o644)
		}, "shard-1 is not shard 2 of 3"},
	} {
		sweep := filepath.Join(t.TempDir(), "sweep")
		for k := range 3 {
			if r := runScript(t, env, sweepScript(), "shard", sweep, strconv.Itoa(k), "3"); r.code != 0 {
				t.Fatal(r.stderr)
			}
		}
		c.spoil(sweep)
		if r := runScript(t, env, sweepScript(), "report", sweep); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", c.name, r.code, r.stderr, c.want)
		}
	}
}

// fakeSbatchText is a fake sbatch: it appends its arguments to
// $FAKE_SBATCH_LOG and prints a job id.
const fakeSbatchText = `#!/bin/sh
printf '%s\n' "$@" -- >>"$FAKE_SBATCH_LOG"
echo 4242
`

// TestSbatchScriptSubmitsOneReportAndWantsTheWholeArray runs the Slurm
// script as Slurm would, with the variables of an array task: the first
// task submits the report job with afterok on the array, the others do
// not; an array that is not 0-(N-1), or no array, is refused.
func TestSbatchScriptSubmitsOneReportAndWantsTheWholeArray(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log, sbatchLog := filepath.Join(dir, "log"), filepath.Join(dir, "sbatch")
	bin := t.TempDir()
	exefile.Write(t, filepath.Join(bin, "sbatch"), []byte(fakeSbatchText))
	sweep := filepath.Join(dir, "sweep")
	task := func(k, min, max, count int) []string {
		return []string{"BENCH=" + fakeBench(t, dir), "FAKE_LOG=" + log, "FAKE_SBATCH_LOG=" + sbatchLog, "PATH=" + bin + ":" + os.Getenv("PATH"),
			"SLURM_ARRAY_JOB_ID=77", fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", k), fmt.Sprintf("SLURM_ARRAY_TASK_MIN=%d", min),
			fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", max), fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", count)}
	}
	for _, k := range []int{1, 0} {
		if r := runScript(t, task(k, 0, 1, 2), sbatchScript(), sweep, "--seeds", "1"); r.code != 0 {
			t.Fatalf("task %d: exit %d, %s", k, r.code, r.stderr)
		}
	}
	want := [][]string{{"--parsable", "--job-name=bench-report", "--dependency=afterok:77", "--kill-on-invalid-dep=yes",
		"--output=" + sweep + "/report-%j.out", sbatchScript(), "--report", sweep}}
	if got := calls(t, sbatchLog); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("sbatch was run as\n%q\nwant\n%q", got, want)
	}
	if got := calls(t, log); len(got) != 2 || !slices.Contains(got[0], "2/2") || !slices.Contains(got[1], "1/2") {
		t.Errorf("bench was run as %q, want shard 2/2 then 1/2", got)
	}
	if marker := readFile(t, filepath.Join(sweep, ".report-77")); marker != "4242\n" {
		t.Errorf("the report job's marker holds %q", marker)
	}
	for _, c := range []struct {
		env  []string
		want string
	}{
		{task(1, 1, 4, 4), "submit all of 0-$((N-1))"},
		{task(0, 0, 2, 2), "submit all of 0-$((N-1))"},
		{[]string{"BENCH=" + fakeBench(t, dir), "SLURM_ARRAY_TASK_ID="}, "not a task of a job array"},
	} {
		if r := runScript(t, c.env, sbatchScript(), sweep, "--seeds", "1"); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("exit %d, %q; want 2 and %q", r.code, r.stderr, c.want)
		}
	}
}

// TestResumableFlagsAreBenchs: every flag the shard block passes on to
// bench run --resume is one bench accepts there, else every requeued or
// retried shard would fail; the control is a flag of the plan, refused.
func TestResumableFlagsAreBenchs(t *testing.T) {
	t.Parallel()
	m := regexp.MustCompile(`(?m)^\s*resumable=' ([a-z -]+) '$`).FindStringSubmatch(readFile(t, sweepScript()))
	if m == nil {
		t.Fatal("no resumable='…' list in deploy/bench-sweep")
	}
	dir := filepath.Join(t.TempDir(), "run")
	runBench(t, "", os.Environ(), "run", "--tracks", "oracle", "--tasks", "leap_year", "--seeds", "1", "--out", dir)
	samples := map[string]string{"host": "http://127.0.0.1:1", "parallel": "1", "parallel-per-host": "1", "timeout": "1m",
		"retry-window": "1s", "tasks-dir": t.TempDir(), "sandbox": "auto", "keep-workspaces": "true", "format": "text", "f": "text"}
	t.Run("control", func(t *testing.T) {
		t.Parallel()
		if _, err := benchOutput(bench(t), "", os.Environ(), "run", "--resume", dir, "--seeds=1"); err == nil || !strings.Contains(err.Error(), "drop --seeds") {
			t.Errorf("bench run --resume --seeds=1 gave %v, want it refused", err)
		}
	})
	for _, name := range strings.Fields(m[1]) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v, ok := samples[name]
			if !ok {
				t.Fatalf("no sample value for --%s: add one here", name)
			}
			_, err := benchOutput(bench(t), "", os.Environ(), "run", "--resume", dir, "--"+name+"="+v)
			if err != nil && strings.Contains(err.Error(), "drop --") {
				t.Errorf("bench run --resume refuses --%s, which the shard block passes on: %v", name, err)
			}
		})
	}
}
