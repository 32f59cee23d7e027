package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/detect"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// TestSettingsDimensionsThroughTheCLI: bench run --posture off,on
// --max-turns 1,2 against a fake Ollama server runs the agent once per
// variant, each with its variant's settings: the turns it was allowed (a
// model that only ever lists files uses them all, then one call without
// tools) and the coding guidance, in its own trajectory, only where the
// posture is on. --dry-run counts the variants first.
func TestSettingsDimensionsThroughTheCLI(t *testing.T) {
	fixture.FullOnly(t, "runner's TestSettingsDimensionsRunEachVariant and TestEpisodePosture run each variant with its settings, runflags' TestSettingsFlagsRead reads the flags")
	t.Parallel()
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Calls(model.ToolCall{Name: "list_files", Arguments: "{}"})))
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--host", srv.URL, "--tracks", "agent", "--tasks", "leap_year", "--posture", "off,on", "--max-turns", "1,2", "--out", dir}
	stdout, _, err := runCLI(t, append(args, "--dry-run")...)
	if err != nil || !strings.Contains(stdout, "4 episodes (1 task × 1 track × 4 variants × 1 seed") ||
		!strings.Contains(stdout, "max-turns=1 posture=off; max-turns=1 posture=on; max-turns=2 posture=off; max-turns=2 posture=on") {
		t.Fatalf("dry run: %v\n%s", err, stdout)
	}
	if _, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("bench run: %v\n%s", err, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Run.Dimensions) != 2 || data.Run.Dimensions[0].Name != "max-turns" || data.Run.Dimensions[1].Name != "posture" {
		t.Fatalf("run.json's dimensions %+v", data.Run.Dimensions)
	}
	guidance := strings.TrimSpace(detect.GuidanceFor(false))
	seen := map[string]bool{}
	for _, ep := range data.Episodes {
		seen[ep.Variant] = true
		turns := map[bool]int{true: 1, false: 2}[strings.Contains(ep.Variant, "max-turns=1 ")]
		on := strings.HasSuffix(ep.Variant, "posture=on")
		if ep.ExitReason != record.ExitMaxTurns || ep.ModelCalls != turns+1 {
			t.Errorf("%s: exit %s after %d calls, want max_turns after %d", ep.Variant, ep.ExitReason, ep.ModelCalls, turns+1)
		}
		if want := map[bool]string{true: "coding", false: "general"}[on]; ep.Posture != want {
			t.Errorf("%s: posture %q, want %q", ep.Variant, ep.Posture, want)
		}
		traj, err := os.ReadFile(data.TrajectoryPath(ep))
		if err != nil {
			t.Fatal(err)
		}
		// The system prompt is JSON-escaped in the trajectory: look for its first line.
		if first := strings.SplitN(guidance, "\n", 2)[0]; strings.Contains(string(traj), first) != on {
			t.Errorf("%s: guidance in the trajectory %v, want %v", ep.Variant, !on, on)
		}
	}
	if len(seen) != 4 || len(data.Episodes) != 4 {
		t.Errorf("%d episodes of variants %v, want one of each of 4", len(data.Episodes), seen)
	}
	// A replay plays each variant's recording back into the same variant.
	replayed := filepath.Join(t.TempDir(), "replayed")
	if _, stderr, err := runCLI(t, "run", "--replay", dir, "--out", replayed); err != nil {
		t.Fatalf("bench run --replay: %v\n%s", err, stderr)
	}
	again, err := record.Read(replayed)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range again.Episodes {
		if !seen[ep.Variant] || ep.Replay == nil || ep.Replay.Stopped != nil {
			t.Errorf("replayed %s: variant %q, replay %+v", ep.Key(), ep.Variant, ep.Replay)
		}
		delete(seen, ep.Variant)
	}
	if len(seen) != 0 || len(again.Run.Dimensions) != 2 {
		t.Errorf("the replay lacks the variants %v, or its run.json the dimensions %+v", seen, again.Run.Dimensions)
	}
}
