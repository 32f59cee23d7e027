package main

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/otiai10/copy"

	"bench/model"
	"bench/model/modeltest"
	"bench/tasks"
)

// oneTask writes the built-in task name alone into a fresh --tasks-dir, so
// that the doctor's oracle check stays quick.
func oneTask(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	err := copy.Copy(name, filepath.Join(dir, name), copy.Options{FS: tasks.Embedded(), PermissionControl: copy.AddPermission(0o200)})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// doctor runs `bench doctor` over the leap_year task alone and returns its
// output and exit code.
func doctor(t *testing.T, args ...string) (string, int) {
	t.Helper()
	args = append([]string{"doctor", "--tasks-dir", oneTask(t, "leap_year")}, args...)
	out, _, err := runCLI(t, args...)
	return out, exitCode(err, io.Discard)
}

func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l) {
			t.Errorf("output lacks %q:\n%s", l, out)
		}
	}
}

func TestDoctorReady(t *testing.T) {
	srv := modeltest.NewOllama(t)
	out, code := doctor(t, "--host", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out,
		"✓ server   Ollama at "+srv.URL+" is reachable",
		"✓ version  Ollama 0.17.4",
		"✓ model    qwen3:8b is present, digest sha256:fa3e0a4b4d1c",
		"✓ tools    qwen3:8b supports tool calling",
		"✓ python3  Python 3.",
		"✓ tasks    1 pass the oracle check",
		"ready: a run can start",
	)
	if len(srv.Requests()) != 0 {
		t.Errorf("doctor made a chat call")
	}
}

func TestDoctorModelMissing(t *testing.T) {
	srv := modeltest.NewOllama(t)
	out, code := doctor(t, "--host", srv.URL, "--model", "llama9:70b")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out,
		"✗ model    llama9:70b is not on "+srv.URL+" (it has: qwen3:8b) — fix: ollama pull llama9:70b",
		"not ready: 1 check(s) failed",
	)
	if strings.Contains(out, "tools") {
		t.Errorf("tools checked for a missing model:\n%s", out)
	}
}

func TestDoctorHostDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	out, code := doctor(t, "--host", addr)
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✗ server   cannot reach Ollama at http://"+addr+" (connection refused)", "— fix: ollama serve")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("doctor took %v on a down host", d)
	}
}

func TestDoctorModelWithoutTools(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "gemma:2b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	out, code := doctor(t, "--host", srv.URL, "--model", "gemma:2b")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✓ model    gemma:2b is present, digest sha256:0123", "✗ tools    gemma:2b does not support tool calling", "fix: ollama pull qwen3:8b")
}

func TestDoctorOldOllama(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.Version = "0.2.8"
	out, code := doctor(t, "--host", srv.URL)
	if code != 1 || !strings.Contains(out, "✗ version  Ollama 0.2.8 is older than 0.3.0") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestDoctorOpenAI(t *testing.T) {
	srv := modeltest.NewOpenAI(t)
	out, code := doctor(t, "--backend", "openai", "--host", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✓ server   OpenAI-compatible server at "+srv.URL+"/v1 is reachable", "✓ tools    assumed")
	out, code = doctor(t, "--backend", "openai", "--host", srv.URL, "--model", "other")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✗ model    other is not on", "restart the server with --model other")
}

func TestPreflightWithoutModel(t *testing.T) {
	// The oracle track needs no server: a down host is not checked.
	checks, ok := preflight(context.Background(), model.Config{Host: "127.0.0.1:1"}, needs{}, nil)
	if !ok || len(checks) != 1 || checks[0].Name != checkPython {
		t.Fatalf("checks = %v, ok = %v", checks, ok)
	}
}

func TestParseVersion(t *testing.T) {
	for s, want := range map[string][3]int{"0.17.4": {0, 17, 4}, "v0.3.0-rc1": {0, 3, 0}, "1.2": {1, 2, 0}} {
		if v, ok := parseVersion(s); !ok || v != want {
			t.Errorf("%s: %v %v", s, v, ok)
		}
	}
	if _, ok := parseVersion("dev"); ok {
		t.Error("dev parsed")
	}
}

func TestDoctorBrokenTask(t *testing.T) {
	srv := modeltest.NewOllama(t)
	dir := oneTask(t, "leap_year")
	buggy, err := os.ReadFile(filepath.Join(dir, "leap_year", "repo", "leap.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "leap_year", "solution", "leap.py"), buggy, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "doctor", "--tasks-dir", dir, "--host", srv.URL)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✗ tasks    1 of 1 fail the oracle check: leap_year (solution passes:", "fix: bench tasks verify")
}
