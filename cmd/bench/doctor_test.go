package main

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"bench/model/modeltest"
	"bench/preflight"
)

// doctor runs `bench doctor` over the leap_year task alone and returns its
// output and exit code.
func doctor(t *testing.T, args ...string) (string, int) {
	t.Helper()
	args = append([]string{"doctor", "--tasks", "leap_year"}, args...)
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
	t.Parallel()
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
	t.Parallel()
	srv := modeltest.NewOllama(t)
	out, code := doctor(t, "--host", srv.URL, "--model", "llama9:70b")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out,
		"✗ model    model \"llama9:70b\" not found on "+srv.URL+": run `OLLAMA_HOST="+strings.TrimPrefix(srv.URL, "http://")+" ollama pull llama9:70b` (the server has: qwen3:8b)",
		"not ready: 1 check(s) failed",
	)
	if strings.Contains(out, "tools") {
		t.Errorf("tools checked for a missing model:\n%s", out)
	}
}

func TestDoctorHostDown(t *testing.T) {
	t.Parallel()
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
	wantLines(t, out, "✗ server   cannot reach the Ollama server at http://"+addr+" (", "connection refused", "`OLLAMA_HOST="+addr+" ollama serve`")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("doctor took %v on a down host", d)
	}
}

func TestDoctorModelWithoutTools(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "gemma:2b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	out, code := doctor(t, "--host", srv.URL, "--model", "gemma:2b")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✓ model    gemma:2b is present, digest sha256:0123", "✗ tools    model \"gemma:2b\" on "+srv.URL+" does not support tool calling", "with --model")
}

func TestDoctorOldOllama(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.Version = "0.2.8"
	out, code := doctor(t, "--host", srv.URL)
	if code != 1 || !strings.Contains(out, "✗ version  Ollama 0.2.8 is older than 0.3.0") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestDoctorOpenAI(t *testing.T) {
	t.Parallel()
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
	wantLines(t, out, "✗ model    model \"other\" not found on", "pass --model with a model the server serves")
	if strings.Contains(out, "ollama pull") {
		t.Errorf("an OpenAI-compatible server was told to pull an Ollama tag:\n%s", out)
	}
}

func TestDoctorBrokenTask(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	dir := t.TempDir()
	addTask(t, dir, "leap_year", "my_leap")
	buggy, err := os.ReadFile(filepath.Join(dir, "my_leap", "repo", "leap.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "my_leap", "solution", "leap.py"), buggy, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "doctor", "--tasks-dir", dir, "--tasks", "my_leap", "--host", srv.URL)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✗ tasks    1 of 1 fail the oracle check: my_leap (solution passes:", "fix: bench tasks verify")
}

func TestDoctorTracksWorkflowNeedsNoTools(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "gemma:2b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	out, code := doctor(t, "--host", srv.URL, "--model", "gemma:2b", "--tracks", "workflow,workflow-retry")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "- tools    not needed: --tracks workflow,workflow-retry offers the model no tools", "ready: a run can start")
	out, code = doctor(t, "--host", srv.URL, "--model", "gemma:2b", "--track", "agent")
	if code != 1 {
		t.Fatalf("--track agent: exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✗ tools")
}

func TestDoctorOracleNeedsNoModel(t *testing.T) {
	t.Parallel()
	out, code := doctor(t, "--host", "127.0.0.1:1", "--tracks", "oracle")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "- server   not needed: --tracks oracle calls no model", "✓ python3", "✓ tasks    1 pass")
	for _, check := range []string{preflight.Version, preflight.Model, preflight.Tools, preflight.Think} {
		if regexp.MustCompile(`(?m)^\s*\S+ ` + check + ` `).MatchString(out) {
			t.Errorf("oracle made the %s check:\n%s", check, out)
		}
	}
}

func TestDoctorUnknownTrackSuggests(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "doctor", "--tracks", "agnet")
	if err == nil || !strings.Contains(err.Error(), `unknown track "agnet" in --tracks (did you mean agent?)`) {
		t.Fatalf("err = %v", err)
	}
}

func TestDoctorJSON(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	out, code := doctor(t, "--host", srv.URL, "-f", "json", "--track", "workflow")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var got struct {
		Ready  bool
		Checks []struct{ Name, Status, Text, Digest string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !got.Ready || len(got.Checks) != 9 || got.Checks[3].Name != "tools" || got.Checks[3].Status != "skipped" || len(got.Checks[2].Digest) != len("sha256:")+64 {
		t.Errorf("%+v", got)
	}
}

// TestDoctorChecksEveryHostAndModel: doctor takes --host and --model lists
// as bench run does, checks every server and model, and the local checks
// once.
func TestDoctorChecksEveryHostAndModel(t *testing.T) {
	t.Parallel()
	up := modeltest.NewOllama(t)
	down := "http://127.0.0.1:1"
	out, code := doctor(t, "--host", up.URL+","+down, "--model", "qwen3:8b,llama9:70b")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out,
		"✓ server   Ollama at "+up.URL+" is reachable",
		"✓ model    qwen3:8b is present",
		`✗ model    model "llama9:70b" not found`,
		"✗ server   cannot reach the Ollama server at "+down,
	)
	for line, want := range map[string]int{"python3  ": 1, down + " (": 1} {
		if n := strings.Count(out, line); n != want {
			t.Errorf("%q is printed %d times, want %d:\n%s", line, n, want, out)
		}
	}
}

// TestDoctorWorkflowModel: --workflow-model checks the hybrid's second
// model as bench run asks it, without tools: one without tool support is
// ready, one the server lacks is named with its pull line.
func TestDoctorWorkflowModel(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: modeltest.DefaultModel, Digest: modeltest.DefaultDigest, Capabilities: []string{"completion", "tools"}},
		modeltest.Model{Name: "plain:1b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	out, code := doctor(t, "--host", srv.URL, "--tracks", "hybrid", "--workflow-model", "plain:1b")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantLines(t, out, "✓ model    plain:1b is present", "✓ tools    qwen3:8b supports tool calling", "plain:1b is asked without tools", "ready: a run can start")
	out, code = doctor(t, "--host", srv.URL, "--tracks", "hybrid", "--workflow-model", "missing:7b")
	if code != 1 {
		t.Fatalf("a missing workflow model: exit %d:\n%s", code, out)
	}
	wantLines(t, out, "ollama pull missing:7b", "not ready: 1 check(s) failed")
}

// TestDoctorReadsTheRunsSpec: doctor reads its flags into the spec bench
// run reads (runflags, runner.NewRun), so what a run refuses, doctor
// refuses too, with run's words: a blank model between commas and a
// server named twice, which doctor once dropped or checked twice.
func TestDoctorReadsTheRunsSpec(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"--model", "a,,b"}, "--model names an empty model between commas", exitUsage},
		{[]string{"--host", "http://127.0.0.1:1,http://127.0.0.1:1"}, `--host lists "http://127.0.0.1:1" twice`, exitUsage},
	} {
		for _, cmd := range []string{"doctor", "run"} {
			args := append([]string{cmd, "--tracks", "workflow"}, tc.args...)
			if cmd == "run" {
				args = append(args, "--dry-run")
			}
			_, _, err := runCLI(t, args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err, io.Discard) != tc.code {
				t.Errorf("bench %s: %v; want exit %d, %q", strings.Join(args, " "), err, tc.code, tc.want)
			}
		}
	}
}
