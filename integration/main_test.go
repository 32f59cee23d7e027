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

	"bench/internal/testsupport"
)

// suite is what TestMain sets up once for every test.
var suite struct {
	skip   string  // why the tests skip; "" when the server's start script is here
	script string  // the server's start script
	tmp    string  // a folder that lives as long as the suite
	bench  string  // the built bench binary
	server *Server // the real Ollama server
}

// TestMain finds the real server's start script and, at the end, stops the
// server if a test started it. Without the script every test skips with
// the printed reason, or the suite fails when BENCH_OLLAMA_REQUIRED=1.
// The first test that needs the server builds bench and starts the server
// (need): a run that selects no such test pays for neither.
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
	root, err := testsupport.ModuleRoot()
	if err == nil {
		suite.script, err = FindStart(root)
	}
	if err != nil {
		if os.Getenv(EnvRequired) == "1" {
			fmt.Fprintf(os.Stderr, "integration: %v (and %s=1)\n", err, EnvRequired)
			return 1
		}
		suite.skip = "no real Ollama server: " + err.Error()
		fmt.Fprintln(os.Stderr, "integration: skipping:", suite.skip)
	}
	defer func() {
		if suite.server != nil {
			suite.server.Stop()
		}
	}()
	return m.Run()
}

// setUp builds bench and starts the server side by side, once for the
// suite; the error says which failed.
var setUp = sync.OnceValue(func() error {
	built := make(chan error, 1)
	go func() {
		var err error
		suite.bench, err = testsupport.Bench()
		built <- err
	}()
	srv, err := Start(suite.script, filepath.Join(suite.tmp, "ollama"), os.Getpid())
	suite.server = srv
	return errors.Join(<-built, err)
})

// presenceLink is a link inside the module to where the documented layout
// keeps the server's start script (shared/ollama/start beside the clone).
// Go's test cache rechecks only the files inside the module that a test
// consulted (and follows links), and every environment variable it read.
const presenceLink = "testdata/shared-ollama-start"

// consulted makes the first test consult what decides whether the server
// is found, once.
var consulted sync.Once

// need skips t when the suite has no server, and fails it when bench
// cannot be built or the server found cannot start. It first consults, from inside
// a test, the inputs that decide whether the server is found (TestMain runs
// before Go starts recording them): so a result is never served from the
// test cache after the server appeared or went away.
func need(t *testing.T) {
	t.Helper()
	consulted.Do(consultPresence)
	if suite.skip != "" {
		t.Skip(suite.skip)
	}
	if err := setUp(); err != nil {
		t.Fatal(err)
	}
}

// needFull is need for a test that runs in full mode only (go test
// ./integration, as CI runs it): in short mode (make test) the suite runs
// TestSmoke alone, since the tiny model answers one call at a time and the
// whole suite queues for over a minute on two cores. In short mode it
// skips before need, so it neither builds bench nor starts the server.
func needFull(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("full mode only (CI runs go test ./integration): short mode runs TestSmoke against the real server")
	}
	need(t)
}

// consultPresence reads the environment variables that steer the suite and
// stats presenceLink, so that Go's test cache keys on them, and on every
// folder of the module: the suite runs the built bench, which this test
// binary does not link.
func consultPresence() {
	os.Getenv(EnvDir)
	os.Getenv(EnvRequired)
	os.Stat(presenceLink)
	if root, err := testsupport.ModuleRoot(); err == nil {
		testsupport.ConsultModule(root)
	}
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
