package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// serverModel is what the server itself says of a model: its digest from
// GET /api/tags and its capabilities from POST /api/show.
type serverModel struct {
	digest       string
	capabilities []string
}

// askServer asks the real server about model, as the truth to compare with.
func askServer(t *testing.T, model string) serverModel {
	t.Helper()
	var tags struct {
		Models []struct{ Name, Digest string }
	}
	getJSON(t, "GET", "/api/tags", nil, &tags)
	var m serverModel
	for _, tm := range tags.Models {
		if tm.Name == model+":latest" {
			m.digest = tm.Digest
		}
	}
	if m.digest == "" {
		t.Fatalf("/api/tags does not list %s: %+v", model, tags)
	}
	var show struct{ Capabilities []string }
	getJSON(t, "POST", "/api/show", map[string]string{"model": model}, &show)
	m.capabilities = show.Capabilities
	return m
}

// getJSON makes one call to the server's API and decodes its JSON answer.
func getJSON(t *testing.T, method, path string, body, into any) {
	t.Helper()
	var in bytes.Buffer
	if body != nil {
		json.NewEncoder(&in).Encode(body) //nolint:errcheck // a map of strings encodes
	}
	req, err := http.NewRequest(method, suite.server.URL+path, &in)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

// doctorLines runs bench doctor with args and returns its exit code and its
// lines, keyed by the check's name (the word after ✓ or ✗), and the last line.
func doctorLines(t *testing.T, args ...string) (r result, checks map[string]string, last string) {
	t.Helper()
	r = bench(t, append([]string{"doctor"}, args...)...)
	checks = map[string]string{}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "✓" || f[0] == "✗") {
			checks[f[1]] = line
		}
	}
	return r, checks, lines[len(lines)-1]
}

// TestDoctor: every line of bench doctor against the real server, with the
// digest and the tool support the server reports.
func TestDoctor(t *testing.T) {
	needFull(t)
	t.Parallel()
	var version struct{ Version string }
	getJSON(t, "GET", "/api/version", nil, &version)
	for _, model := range []string{modelTools, modelPlain} {
		t.Run(model, func(t *testing.T) {
			t.Parallel()
			truth := askServer(t, model)
			tools := slices.Contains(truth.capabilities, "tools")
			args := []string{flagHost, suite.server.URL, flagModel, model}
			if !tools { // one task's oracle check is enough for the second doctor
				args = append(args, flagTasks, task)
			}
			r, checks, last := doctorLines(t, args...)
			want := map[string]string{
				"server":  fmt.Sprintf("✓ server   Ollama at %s is reachable", suite.server.URL),
				"version": "✓ version  Ollama " + version.Version,
				"model":   fmt.Sprintf("✓ model    %s is present, digest %.12s, capabilities %s", model, truth.digest, strings.Join(slices.Sorted(slices.Values(truth.capabilities)), ", ")),
				"python3": "✓ python3  Python 3.",
				"tasks":   "✓ tasks    ",
				"tools":   fmt.Sprintf("✓ tools    %s supports tool calling", model),
			}
			wantCode, wantLast := 0, "ready: a run can start"
			if !tools { // the default tracks include the agent, which needs tools
				want["tools"] = fmt.Sprintf("✗ tools    model %q on %s does not support tool calling", model, suite.server.URL)
				wantCode, wantLast = 1, "not ready: 1 check(s) failed"
			}
			if !strings.HasSuffix(checks["tasks"], " pass the oracle check") {
				t.Errorf("tasks line: got %q", checks["tasks"])
			}
			for name, prefix := range want {
				if !strings.HasPrefix(checks[name], prefix) {
					t.Errorf("%s line: got %q, want it to start %q", name, checks[name], prefix)
				}
			}
			want["sandbox"] = "✓ sandbox  " // one line per layer; the map keeps the last
			if len(checks) != len(want) || r.code != wantCode || last != wantLast {
				t.Errorf("want %d checks, exit %d, last line %q; got:\n%s", len(want), wantCode, wantLast, r)
			}
		})
	}
}

// TestDoctorCapabilities: the doctor shows the model's capabilities as
// the server's /api/show lists them.
func TestDoctorCapabilities(t *testing.T) {
	needFull(t)
	t.Parallel()
	truth := askServer(t, modelPlain)
	r, checks, _ := doctorLines(t, flagHost, suite.server.URL, flagModel, modelPlain, flagTasks, task)
	for _, c := range truth.capabilities {
		if !strings.Contains(checks["model"]+checks["tools"], c) {
			t.Errorf("doctor does not name the capability %q of %s:\n%s", c, modelPlain, r)
		}
	}
}

// TestDoctorWorkflowOnly: for the workflow track alone, a model without
// tool support is ready (bench doctor --tracks).
func TestDoctorWorkflowOnly(t *testing.T) {
	needFull(t)
	t.Parallel()
	r, checks, last := doctorLines(t, flagHost, suite.server.URL, flagModel, modelPlain, flagTracks, "workflow", flagTasks, task)
	if r.code != 0 || last != "ready: a run can start" || strings.HasPrefix(checks["tools"], "✗") {
		t.Errorf("want tiny ready for the workflow track:\n%s", r)
	}
}

// TestDoctorOpenAI: the doctor of the OpenAI backend against Ollama's /v1
// finds the model by its name without a tag, as the Ollama side does.
func TestDoctorOpenAI(t *testing.T) {
	needFull(t)
	t.Parallel()
	for _, model := range []string{modelPlain + ":latest", modelPlain} {
		t.Run(model, func(t *testing.T) {
			t.Parallel()
			r, checks, last := doctorLines(t, flagBackend, "openai", flagHost, suite.server.URL+"/v1", flagModel, model, flagTasks, task)
			if !strings.HasPrefix(checks["model"], "✓ model") || r.code != 0 || last != "ready: a run can start" {
				t.Errorf("want %s found and ready:\n%s", model, r)
			}
		})
	}
}
