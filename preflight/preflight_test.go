package preflight

import (
	"context"
	"net"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/runner"
	"bench/sandbox"
	"bench/tasks"
)

// gather is the checks Gather makes, in order.
func gather(ctx context.Context, servers []model.Config, need Needs, taskList []tasks.Task) []Check {
	return Gather(ctx, servers, need, taskList).Checks
}

// find returns the check called name, failing the test when there is none.
func find(t *testing.T, checks []Check, name string) Check {
	t.Helper()
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s check in %v", name, checks)
	return Check{}
}

func TestRunReady(t *testing.T) {
	srv := modeltest.NewOllama(t)
	checks := gather(context.Background(), []model.Config{{Host: srv.URL, Model: model.DefaultModel}}, NeedsOf(runner.TrackWords()), nil)
	if !OK(checks) {
		t.Fatalf("not ok: %v", checks)
	}
	var names []string
	for _, c := range checks {
		names = append(names, c.Name)
	}
	want := "server version model tools python3" + strings.Repeat(" sandbox", len(sandbox.Probe()))
	if got := strings.Join(names, " "); got != want {
		t.Errorf("checks %s", got)
	}
	if got := find(t, checks, Model); got.Text != "qwen3:8b is present, digest sha256:fa3e0a4b4d1c, capabilities completion, tools" || len(got.Digest) != len("sha256:")+64 {
		t.Errorf("model: %+v", got)
	}
}

func TestToolsOnlyForTracksThatUseThem(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.SetModels(modeltest.Model{Name: "gemma:2b", Digest: "sha256:0123", Capabilities: []string{"completion"}})
	cfg := model.Config{Host: srv.URL, Model: "gemma:2b"}
	checks := gather(context.Background(), []model.Config{cfg}, NeedsOf([]string{"workflow"}), nil)
	if !OK(checks) || find(t, checks, Tools).Status != Skipped {
		t.Errorf("workflow alone needs no tools: %v", checks)
	}
	checks = gather(context.Background(), []model.Config{cfg}, NeedsOf([]string{"workflow", "agent"}), nil)
	c := find(t, checks, Tools)
	if c.Status != Fail || !strings.Contains(c.Text, "does not support tool calling") || !strings.Contains(c.Text, "--model") {
		t.Errorf("agent needs tools: %v", c)
	}
}

func TestOracleNeedsNoServer(t *testing.T) {
	checks := gather(context.Background(), []model.Config{{Host: "127.0.0.1:1"}}, NeedsOf([]string{"oracle"}), nil)
	if !OK(checks) || len(checks) != 2+len(sandbox.Probe()) || checks[0].Status != Skipped || checks[1].Name != Python {
		t.Fatalf("checks = %v", checks)
	}
	if want := "- server   not needed: --tracks oracle calls no model"; checks[0].String() != want {
		t.Errorf("got %q, want %q", checks[0], want)
	}
}

func TestHostDownHintFromModelError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	checks := gather(context.Background(), []model.Config{{Host: addr, Model: "m"}}, NeedsOf(runner.TrackWords()), nil)
	c := find(t, checks, Server)
	want := (&model.Error{Kind: model.ErrUnreachable, Backend: model.BackendOllama, Host: "http://" + addr}).Error()
	// The hint is the model package's, not a copy: the text ends as its error does.
	_, hint, _ := strings.Cut(want, ": ")
	if c.Status != Fail || !strings.HasSuffix(c.Text, hint) || !strings.Contains(c.Text, addr) {
		t.Errorf("server check %q, want the model error's hint %q", c.Text, hint)
	}
	if find(t, checks, Python).Status == Fail || len(checks) != 2+len(sandbox.Probe()) {
		t.Errorf("checks = %v", checks)
	}
}

func TestModelMissingListsWhatTheServerHas(t *testing.T) {
	srv := modeltest.NewOllama(t)
	checks := gather(context.Background(), []model.Config{{Host: srv.URL, Model: "llama9:70b"}}, NeedsOf(runner.TrackWords()), nil)
	c := find(t, checks, Model)
	if c.Status != Fail || !strings.Contains(c.Text, "ollama pull llama9:70b") || !strings.Contains(c.Text, "(the server has: qwen3:8b)") {
		t.Errorf("model check %v", c)
	}
	if got := Failed(checks); len(got) != 1 || got[0] != Model {
		t.Errorf("failed %v", got)
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

func TestSkippedWithoutTrackNames(t *testing.T) {
	checks := gather(context.Background(), []model.Config{{}}, Needs{}, nil)
	if got := checks[0].Text; got != "not needed: no track calls a model" {
		t.Errorf("got %q", got)
	}
}
