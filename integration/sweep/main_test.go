// Package sweep runs bench sweeps on real engines and compares each with the
// same plan run on one machine, episode for episode: deploy/slurm's job
// array on a real one-node Slurm cluster (deploy/slurm/local-cluster), and
// deploy/README.md's GNU parallel recipe. The model is the protocol fake of
// model/modeltest, served on a loopback port the jobs reach over TCP, with
// scripted replies that make both tracks edit files and run tests.
//
// Where Slurm or GNU parallel is missing and cannot be installed (not root,
// no apt-get) the tests skip with the reason printed, unless
// BENCH_SLURM_REQUIRED=1 or BENCH_PARALLEL_REQUIRED=1, when they fail. In
// short mode (make test) the sweeps on real engines skip: CI runs this
// package without -short in a step of its own.
package sweep

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport"
)

// Environment variables that make a missing engine a failure.
const (
	EnvSlurmRequired    = "BENCH_SLURM_REQUIRED"
	EnvParallelRequired = "BENCH_PARALLEL_REQUIRED"
)

// suite is what TestMain sets up once for every test.
var suite struct {
	root string // the module root
	tmp  string // lives as long as the suite
}

// TestMain stops the Slurm cluster if a test started one. The tests that
// run the real bench build it on first use (bench), so short mode, where
// one test does, links it once, and the same binary serves integration.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "bench-sweep-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sweep:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	suite.tmp = tmp
	if suite.root, err = testsupport.ModuleRoot(); err != nil {
		fmt.Fprintln(os.Stderr, "sweep:", err)
		return 1
	}
	defer stopCluster()
	return m.Run()
}

// bench is the built bench binary; it fails t when bench cannot be built.
func bench(t *testing.T) string {
	t.Helper()
	return testsupport.NeedBench(t)
}

// unavailable skips t, loudly, because why says the engine cannot run
// here, or fails it when env says the engine must run.
func unavailable(t *testing.T, env, why string) {
	t.Helper()
	if os.Getenv(env) == "1" {
		t.Fatalf("%s (and %s=1)", why, env)
	}
	fmt.Fprintf(os.Stderr, "sweep: SKIPPING %s: %s\n", t.Name(), why)
	t.Skip(why)
}

// skipInShortMode skips t under go test -short: a sweep on a real engine
// takes a minute or more, so make test leaves them to CI's step of their
// own (go test ./integration/sweep, with the engines required).
func skipInShortMode(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("short mode: the sweeps on real Slurm and GNU parallel run without -short (CI's sweep step)")
	}
}

// sbatchScript is the job-array script under test.
func sbatchScript() string { return filepath.Join(suite.root, "deploy", "slurm", "bench-sweep.sbatch") }

// sweepScript is the engine-neutral script under test.
func sweepScript() string { return filepath.Join(suite.root, "deploy", "bench-sweep") }

// runBench runs the built bench with args in dir and env; it fails t
// unless bench exits 0.
func runBench(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	out, err := benchOutput(bench(t), dir, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// benchOutput runs the bench binary exe with args in dir and env and
// returns its stdout; an exit other than 0 is an error holding both outputs.
func benchOutput(exe, dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command(exe, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("bench %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// waitFor polls ok for up to 30 seconds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// readFile is the text of the file at path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
