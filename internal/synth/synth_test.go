package synth

import (
	"path/filepath"
	"slices"
	"testing"

	"bench/record"
)

// TestWriteIsRealistic: what Write writes is a run bench reads without a
// warning, of the shape the package promises: every task and track, 10%
// twins, agent turns 2 to 25 with a step per model call, a tool call per
// turn, causes on every failed episode (most found, some not), and the
// same folder for the same seed.
func TestWriteIsRealistic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	const n = 1200
	if _, err := Write(dir, n, Options{Seed: 3}); err != nil {
		t.Fatal(err)
	}
	data, err := record.Read(dir)
	if err != nil || len(data.Warnings) > 0 || len(data.Episodes) != n {
		t.Fatalf("%d episodes, warnings %q, err %v", len(data.Episodes), data.Warnings, err)
	}
	twins, turns, failed, withCauses := 0, map[int]bool{}, 0, 0
	for _, ep := range data.Episodes {
		if ep.Repeat > 0 {
			twins++
		}
		switch failing := !ep.Passed && ep.ExitReason != record.ExitError; {
		case failing && ep.Causes == nil:
			t.Fatalf("%s: failed without a causes list", ep.Key())
		case !failing && ep.Causes != nil:
			t.Fatalf("%s: causes %v on an episode that did not fail", ep.Key(), ep.Causes)
		case failing:
			failed++
			if len(ep.Causes) > 0 {
				withCauses++
			}
		}
		if len(ep.Steps) != ep.ModelCalls {
			t.Fatalf("%s: %d steps for %d model calls", ep.Key(), len(ep.Steps), ep.ModelCalls)
		}
		if ep.Track == "agent" {
			turns[ep.Turns] = true
			if len(ep.ToolCalls) != ep.Turns || ep.Turns < 2 || ep.Turns > 25 {
				t.Fatalf("%s: %d turns, %d tool calls", ep.Key(), ep.Turns, len(ep.ToolCalls))
			}
		}
	}
	if share := float64(twins) / n; share < 0.08 || share > 0.12 {
		t.Errorf("twins %.2f of the episodes, want about 0.10", share)
	}
	if share := float64(withCauses) / float64(failed); share < 0.85 || share == 1 {
		t.Errorf("%.2f of the %d failed episodes have a cause, want most (and some none found)", share, failed)
	}
	if !turns[2] || !turns[25] {
		t.Errorf("agent turns seen: %v, want 2 to 25", turns)
	}
	again := filepath.Join(t.TempDir(), "run")
	Write(again, n, Options{Seed: 3})
	d2, _ := record.Read(again)
	if !slices.EqualFunc(data.Episodes, d2.Episodes, func(a, b record.Episode) bool { return a.Key() == b.Key() && a.PromptTokens == b.PromptTokens }) {
		t.Error("the same seed wrote another run")
	}
}

// TestTrajectoriesMatchTheirDigests: with Trajectories, every episode's
// file is where bench looks and its digest is the line's: the report
// counts every pass.
func TestTrajectoriesMatchTheirDigests(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Write(dir, 48, Options{Seed: 1, Trajectories: true}); err != nil {
		t.Fatal(err)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range data.Verdicts() {
		ep := data.Episodes[i]
		if ep.TrajectorySHA256 == "" || v != ep.Verdict() {
			t.Errorf("%s: verdict %+v, its line's %+v (digest %q)", ep.Key(), v, ep.Verdict(), ep.TrajectorySHA256)
		}
	}
}
