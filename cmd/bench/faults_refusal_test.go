package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/model/modeltest"
)

// faultsRefused runs bench run with args (a new run into a fresh folder)
// and checks that it is refused, that nothing was created, and that stderr
// holds every line of want and none of the generic server blame.
func faultsRefused(t *testing.T, want []string, args ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "never")
	_, stderr, err := runCLI(t, append([]string{"run", "--tasks", "leap_year", "--out", dir}, args...)...)
	if err == nil {
		t.Fatalf("bench run %q was not refused:\n%s", args, stderr)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused run created %s", dir)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("bench run %q: stderr lacks %q:\n%s", args, w, stderr)
		}
	}
	if strings.Contains(stderr, "could not use one") {
		t.Errorf("bench run %q blames the server for what is not its fault:\n%s", args, stderr)
	}
	return stderr
}

// TestFaultsRefusalMissingModel: the server is up but lacks the model: the
// refusal says so and gives the exact pull line for that host.
func TestFaultsRefusalMissingModel(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "gemma3:4b", Digest: "sha256:0123", Capabilities: []string{"completion", "tools"}})
	hostport := strings.TrimPrefix(srv.URL, "http://")
	faultsRefused(t, []string{"is up, but it has no model qwen3:8b", "`OLLAMA_HOST=" + hostport + " ollama pull qwen3:8b`"},
		"--host", srv.URL)
}

// TestFaultsRefusalNoToolSupport: a model without tools, for a run with the
// agent track: the refusal names the track that needs tools and the way
// out, --tracks workflow.
func TestFaultsRefusalNoToolSupport(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "qwen3:8b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	faultsRefused(t, []string{"cannot call tools, which the agent track needs", "--tracks workflow"},
		"--host", srv.URL, "--tracks", "workflow,agent")
}

// TestFaultsRefusalCannotThink: --think with a model that cannot think.
func TestFaultsRefusalCannotThink(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "qwen3:8b", Digest: "sha256:0123", Capabilities: []string{"completion", "tools"}})
	faultsRefused(t, []string{"qwen3:8b cannot think, which --think asks for", "drop --think"},
		"--host", srv.URL, "--think")
}

// TestFaultsRefusalServerUnreachable: nothing listens: the refusal says
// how to start Ollama and how to pull the model, as the README promises.
func TestFaultsRefusalServerUnreachable(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	faultsRefused(t, []string{"could not reach the model server at http://" + addr, "ollama serve", "ollama pull qwen3:8b", "--tracks oracle"},
		"--host", "http://"+addr)
}

// TestFaultsRefusalOnResume: a resumed run refused for a missing model
// says so too, and that the folder is unchanged.
func TestFaultsRefusalOnResume(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(testsupport.NewSolver(t).Reply)))
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tracks", "workflow", "--tasks", "leap_year", "--out", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	srv.SetModels()
	_, stderr, err := runCLI(t, "run", "--resume", dir, "--host", srv.URL)
	if err == nil || !strings.Contains(stderr, "has no model qwen3:8b") || !strings.Contains(stderr, dir+" is unchanged") || !strings.Contains(stderr, "ollama pull qwen3:8b") {
		t.Fatalf("resume against a server without the model: %v\n%s", err, stderr)
	}
}
