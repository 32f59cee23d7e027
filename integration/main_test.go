package integration

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// suite is what TestMain sets up once for every test.
var suite struct {
	skip   string  // why the tests skip; "" when the server runs
	tmp    string  // a folder that lives as long as the suite
	bench  string  // the built bench binary
	server *Server // the real Ollama server
}

// TestMain builds bench once, starts the real server once and stops it at
// the end. Without the server every test skips with the printed reason,
// or the suite fails when BENCH_OLLAMA_REQUIRED=1.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "bench-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	suite.tmp = tmp
	stop, err := setUp(tmp)
	if stop != nil {
		defer stop()
	}
	if err != nil {
		if os.Getenv(EnvRequired) == "1" {
			fmt.Fprintf(os.Stderr, "integration: %v (and %s=1)\n", err, EnvRequired)
			return 1
		}
		suite.skip = "no real Ollama server: " + err.Error()
		fmt.Fprintln(os.Stderr, "integration: skipping:", suite.skip)
	}
	return m.Run()
}

// setUp finds the server, builds bench into tmp and starts the server; stop
// stops what was started.
func setUp(tmp string) (stop func(), err error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	script, err := FindStart(root)
	if err != nil {
		return nil, err
	}
	suite.bench = filepath.Join(tmp, "bench")
	build := exec.Command("go", "build", "-o", suite.bench, "./cmd/bench")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building bench: %v\n%s", err, out)
	}
	srv, err := Start(script, filepath.Join(tmp, "ollama"), os.Getpid())
	if err != nil {
		return nil, err
	}
	suite.server = srv
	return func() { srv.Stop() }, nil
}

// moduleRoot is the folder holding go.mod, at or above the working folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working folder")
		}
		dir = parent
	}
}

// presenceLink is a link inside the module to where the documented layout
// keeps the server's start script (shared/ollama/start beside the clone).
// Go's test cache rechecks only the files inside the module that a test
// consulted (and follows links), and every environment variable it read.
const presenceLink = "testdata/shared-ollama-start"

// consulted makes the first test consult what decides whether the server
// is found, once.
var consulted sync.Once

// need skips t when the suite has no server. It first consults, from inside
// a test, the inputs that decide whether the server is found (TestMain runs
// before Go starts recording them): so a result is never served from the
// test cache after the server appeared or went away.
func need(t *testing.T) {
	t.Helper()
	consulted.Do(consultPresence)
	if suite.skip != "" {
		t.Skip(suite.skip)
	}
}

// needFull is need for a test that runs in full mode only (go test
// ./integration, as CI runs it): in short mode (make test) the suite runs
// TestSmoke alone, since the tiny model answers one call at a time and the
// whole suite queues for over a minute on two cores.
func needFull(t *testing.T) {
	t.Helper()
	need(t)
	if testing.Short() {
		t.Skip("full mode only (CI runs go test ./integration): short mode runs TestSmoke against the real server")
	}
}

// consultPresence reads the environment variables that steer the suite and
// stats presenceLink, so that Go's test cache keys on them.
func consultPresence() {
	os.Getenv(EnvDir)
	os.Getenv(EnvRequired)
	os.Stat(presenceLink)
}

// result is what one bench command did.
type result struct {
	args           []string
	stdout, stderr string
	code           int
}

// String names the command and shows its output, for failure messages.
func (r result) String() string {
	return fmt.Sprintf("bench %q exited %d\nstdout:\n%s\nstderr:\n%s", r.args, r.code, r.stdout, r.stderr)
}

// bench runs the built binary with args in a fresh folder, with no
// OLLAMA_HOST or OPENAI_BASE_URL from the environment.
func bench(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(suite.bench, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "OLLAMA_HOST=", "OPENAI_BASE_URL=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running bench %q: %v", args, err)
	}
	return r
}
