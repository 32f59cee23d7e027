package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
)

// hybridEditor is the second model of the --workflow-model tests.
var hybridEditor = modeltest.Model{Name: "editor:1b", Digest: "sha256:e1e1e1e1", Capabilities: []string{"completion", "tools"}}

// hybridTwoModels is a fake Ollama holding the default model and the editor.
func hybridTwoModels(t *testing.T, f hybridFake) *modeltest.Server {
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(f.reply)))
	srv.SetModels(modeltest.Model{Name: modeltest.DefaultModel, Digest: modeltest.DefaultDigest, Capabilities: []string{"completion", "tools"}}, hybridEditor)
	return srv
}

// TestHybridWorkflowModel: with --workflow-model the workflow's call goes
// to the second model and every other call to the run's model; run.json
// records both, with their digests, and the second model is a run setting;
// the run resumes against the same two models.
func TestHybridWorkflowModel(t *testing.T) {
	fixture.FullOnly(t, "TestHybridWorkflowModelRefusals and runner's TestPyramidTwoModels")
	t.Parallel()
	f := hybridFake{
		agent: []modeltest.Reply{
			modeltest.Calls(modeltest.Call("run_workflow", `{}`)).WithUsage(500, 20),
			modeltest.Text("Done.").WithUsage(900, 10),
		},
		inner: modeltest.Text(testsupport.FileReply("leap.py", hybridSource(t, "leap_year", "solution"))).WithUsage(400, 200),
	}
	srv := hybridTwoModels(t, f)
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--host", srv.URL, "--tasks", "leap_year", "--tracks", "workflow,hybrid", "--seeds", "1", "--out", dir, "--workflow-model", hybridEditor.Name}
	if stdout, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("bench run: %v\n%s\n%s", err, stdout, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data.Run.WorkflowModel != hybridEditor.Name || data.Run.WorkflowModelDigest != hybridEditor.Digest || data.Run.ModelDigest != modeltest.DefaultDigest {
		t.Errorf("run.json: workflow model %q (%q), model digest %q; want both models with their digests", data.Run.WorkflowModel, data.Run.WorkflowModelDigest, data.Run.ModelDigest)
	}
	settings := map[string]string{}
	for _, s := range data.Run.Settings() {
		settings[s.Name] = s.Value
	}
	if settings["workflow-model"] != hybridEditor.Name || settings["workflow-model-digest"] != hybridEditor.Digest {
		t.Errorf("settings %v lack the workflow model", settings)
	}
	var agentModels, innerModels []string
	for _, r := range srv.Requests() {
		switch {
		case slices.Contains(r.Tools, "run_workflow"):
			agentModels = append(agentModels, r.Model)
		case hybridIsWorkflowRequest(r) && len(r.Messages) == 2:
			innerModels = append(innerModels, r.Model)
		}
	}
	// The workflow track's request and the hybrid's inner one look alike:
	// the first goes to the run's model, the second to the editor.
	slices.Sort(innerModels)
	if !slices.Equal(agentModels, []string{modeltest.DefaultModel, modeltest.DefaultModel}) || !slices.Equal(innerModels, []string{hybridEditor.Name, modeltest.DefaultModel}) {
		t.Errorf("the agent asked %v, the workflow requests went to %v; want the agent on %s, the hybrid's workflow on %s",
			agentModels, innerModels, modeltest.DefaultModel, hybridEditor.Name)
	}
	ep := hybridEpisode(t, data, "leap_year", "hybrid")
	if !ep.Passed || ep.Model != modeltest.DefaultModel || ep.WorkflowCalls != 1 || ep.WorkflowTokens != 600 {
		t.Errorf("hybrid episode: passed %v, model %q, workflow calls %d, tokens %d", ep.Passed, ep.Model, ep.WorkflowCalls, ep.WorkflowTokens)
	}
	// Resuming checks both digests against run.json: no false refusal.
	if stdout, stderr, err := runCLI(t, "run", "--resume", dir, "--host", srv.URL); err != nil {
		t.Fatalf("bench run --resume: %v\n%s\n%s", err, stdout, stderr)
	}
	if _, stderr, err := runCLI(t, "run", "--resume", dir, "--workflow-model", "other"); err == nil || !strings.Contains(err.Error(), "drop --workflow-model") {
		t.Errorf("--resume took a new --workflow-model: %v\n%s", err, stderr)
	}
}

// TestHybridWorkflowModelRefusals: --workflow-model needs a track that
// uses it, and a model the server holds.
func TestHybridWorkflowModelRefusals(t *testing.T) {
	t.Parallel()
	srv := hybridTwoModels(t, hybridFake{})
	dir := filepath.Join(t.TempDir(), "run")
	_, _, err := runCLI(t, "run", "--host", srv.URL, "--tasks", "leap_year", "--tracks", "workflow,agent", "--out", dir, "--workflow-model", hybridEditor.Name)
	if err == nil || !strings.Contains(err.Error(), "--workflow-model") || !strings.Contains(err.Error(), "hybrid") {
		t.Errorf("--workflow-model without the hybrid track: %v; want a refusal naming the track", err)
	}
	stdout, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tasks", "leap_year", "--tracks", "hybrid", "--out", dir, "--workflow-model", "missing:7b")
	if err == nil || !strings.Contains(stderr+stdout, "missing:7b") {
		t.Errorf("a workflow model the server lacks: %v\n%s\n%s; want the preflight to name it", err, stdout, stderr)
	}
	if _, err := record.Read(dir); err == nil {
		t.Error("a refused run left a results folder")
	}
}

// TestHybridWorkflowModelNeedsNoTools: the workflow's call offers no
// tools, so a --workflow-model without tool support is accepted (the
// run's own model must still have them).
func TestHybridWorkflowModelNeedsNoTools(t *testing.T) {
	t.Parallel()
	plain := modeltest.Model{Name: "plain:1b", Digest: "sha256:p1p1p1p1", Capabilities: []string{"completion"}}
	f := hybridFake{agent: []modeltest.Reply{modeltest.Text("Done.").WithUsage(900, 10)}}
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(f.reply)))
	srv.SetModels(modeltest.Model{Name: modeltest.DefaultModel, Digest: modeltest.DefaultDigest, Capabilities: []string{"completion", "tools"}}, plain)
	dir := filepath.Join(t.TempDir(), "run")
	if stdout, stderr, err := runCLI(t, "run", "--host", srv.URL, "--tasks", "leap_year", "--tracks", "hybrid", "--out", dir, "--workflow-model", plain.Name); err != nil {
		t.Fatalf("a workflow model without tools: %v\n%s\n%s", err, stdout, stderr)
	}
	_, stderr, err := runCLI(t, "run", "--host", srv.URL, "--model", plain.Name, "--tasks", "leap_year", "--tracks", "hybrid", "--out", filepath.Join(t.TempDir(), "run"))
	if err == nil || !strings.Contains(stderr+err.Error(), "tool") {
		t.Errorf("the run's own model without tools: %v\n%s; want the tool refusal", err, stderr)
	}
}
