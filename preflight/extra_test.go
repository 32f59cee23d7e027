package preflight

import (
	"context"
	"slices"
	"strings"
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/sandbox"
)

// TestThinkChecked: --think on a model whose /api/show lists no "thinking"
// fails with the model's own words; a model that can think passes; without
// --think there is no think check at all.
func TestThinkChecked(t *testing.T) {
	srv := modeltest.NewOllama(t)
	srv.SetModels(
		modeltest.Model{Name: "tiny", Digest: "sha256:01", Capabilities: []string{"completion"}},
		modeltest.Model{Name: "deep", Digest: "sha256:02", Capabilities: []string{"completion", "thinking"}},
	)
	need := NeedsOf([]string{"workflow"})
	need.Think = true
	c := find(t, gather(context.Background(), []model.Config{{Host: srv.URL, Model: "tiny"}}, need, nil), Think)
	if c.Status != Fail || !strings.Contains(c.Text, "cannot think") {
		t.Errorf("tiny with --think: %v", c)
	}
	if c := find(t, gather(context.Background(), []model.Config{{Host: srv.URL, Model: "deep"}}, need, nil), Think); c.Status != Pass {
		t.Errorf("deep with --think: %v", c)
	}
	need.Think = false
	for _, c := range gather(context.Background(), []model.Config{{Host: srv.URL, Model: "tiny"}}, need, nil) {
		if c.Name == Think {
			t.Errorf("a think check without --think: %v", c)
		}
	}
}

// TestSandboxChecks: off skips the layers; auto never stops a run, and
// names each layer with what it does; on fails exactly the layers the
// machine lacks (sandbox.Probe says which).
func TestSandboxChecks(t *testing.T) {
	if cs := sandboxChecks(sandbox.Off); len(cs) != 1 || cs[0].Status != Skipped {
		t.Errorf("off: %v", cs)
	}
	probe := sandbox.Probe()
	auto, on := sandboxChecks(sandbox.Auto), sandboxChecks(sandbox.On)
	if len(auto) != len(probe) || len(on) != len(probe) {
		t.Fatalf("%d layers probed, %d auto checks, %d on checks", len(probe), len(auto), len(on))
	}
	for i, p := range probe {
		if auto[i].Status != Pass || !strings.HasPrefix(auto[i].Text, p.Layer+": ") {
			t.Errorf("auto, layer %s: %v", p.Layer, auto[i])
		}
		if want := map[bool]Status{true: Pass, false: Fail}[p.OK]; on[i].Status != want {
			t.Errorf("on, layer %s (available %v): %v", p.Layer, p.OK, on[i])
		}
	}
}

// TestHostsOfAModelAreCompared: bench doctor compares what the hosts of one
// model serve with model.SameModel, the check bench run makes: the same
// weights pass whatever the manifests, other weights fail, one host has
// nothing to compare.
func TestHostsOfAModelAreCompared(t *testing.T) {
	w := "sha256:" + strings.Repeat("f", 64)
	serve := func(weights, digest string) model.Config {
		srv := modeltest.NewOllama(t)
		srv.SetModels(modeltest.Model{Name: "qwen3:8b", Digest: digest, Weights: weights, Capabilities: []string{"completion", "tools"}})
		return model.Config{Host: srv.URL, Model: "qwen3:8b"}
	}
	same := gather(context.Background(), []model.Config{serve(w, "sha256:aa"), serve(w, "sha256:bb")}, NeedsOf([]string{"workflow"}), nil)
	if !OK(same) || !slices.ContainsFunc(same, func(c Check) bool { return c.Text == "qwen3:8b is the same on all 2 hosts (sha256:ffffffffffff)" }) {
		t.Errorf("the same weights on two hosts: %v", same)
	}
	differ := gather(context.Background(), []model.Config{serve(w, "sha256:aa"), serve("sha256:"+strings.Repeat("e", 64), "sha256:aa")}, NeedsOf([]string{"workflow"}), nil)
	if OK(differ) || !slices.ContainsFunc(differ, func(c Check) bool { return c.Kind == model.ErrModelMismatch && !c.OK() }) {
		t.Errorf("other weights on two hosts: %v", differ)
	}
	one := gather(context.Background(), []model.Config{serve(w, "sha256:aa")}, NeedsOf([]string{"workflow"}), nil)
	if slices.ContainsFunc(one, func(c Check) bool { return strings.Contains(c.Text, "the same on all") }) {
		t.Errorf("one host compared with itself: %v", one)
	}
}
