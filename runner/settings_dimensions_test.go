package runner_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"bench/plan"
	"bench/record"
	"bench/runner"
	"bench/track"
)

// settingsSaw is a fake track, named as the oracle (no model) and taking
// the posture: it writes into its trajectory the settings it was given,
// for the test to hold to the episode's variant.
func settingsSaw(ctx context.Context, env *track.Env) track.Outcome {
	env.Rec.Record(record.Event{Kind: record.EventTestRun, Output: fmt.Sprintf("max-turns=%d posture=%s guidance=%v", env.MaxTurns, env.Posture, env.Guidance != "")})
	return track.Outcome{Exit: record.ExitDone}
}

// settingsTracks is settingsSaw as the one track, oracle.
func settingsTracks() []track.Track {
	return []track.Track{{Name: "oracle", Run: settingsSaw, UsesPosture: true}}
}

// settingsDimSpec is a spec of two tasks × the oracle × seeds with the
// dimensions max-turns 5,25 and posture off,on: four variants.
func settingsDimSpec(t *testing.T, seeds ...int) runner.Spec {
	s := pyramidSpec(t, []string{"oracle"}, seeds...)
	s.MaxTurns, s.Posture = 5, "off" // the first values, as the command line sets them
	s.Dimensions = []record.Dimension{{Name: "max-turns", Values: []string{"5", "25"}}, {Name: "posture", Values: []string{"off", "on"}}}
	return s
}

// settingsExecute runs s with settingsTracks, stopping after stopAfter
// episodes when it is more than 0.
func settingsExecute(t *testing.T, s *runner.Session, stopAfter int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int64
	progress := func(record.Episode) {
		if n.Add(1) == stopAfter {
			cancel()
		}
	}
	if err := s.Execute(ctx, nil, runner.ExecOptions{Tracks: settingsTracks(), Progress: progress}); err != nil {
		t.Fatal(err)
	}
}

// settingsCheckEpisodes checks that data holds each job of want once,
// standing, each run with its variant's values (what its track wrote in
// its own trajectory file) and labelled with its posture.
func settingsCheckEpisodes(t *testing.T, data record.Data, want []runner.Job) {
	t.Helper()
	standing := map[string]record.Episode{}
	for _, ep := range data.Episodes {
		if runner.Finished(ep) {
			if _, dup := standing[ep.Key()]; dup {
				t.Errorf("%s stands twice", ep.Key())
			}
			standing[ep.Key()] = ep
		}
	}
	if len(standing) != len(want) {
		t.Errorf("%d episodes stand, want %d", len(standing), len(want))
	}
	paths := map[string]bool{}
	for _, j := range want {
		ep, ok := standing[j.Key()]
		if !ok {
			t.Errorf("%s is missing", j.Key())
			continue
		}
		path := data.TrajectoryPath(ep)
		paths[path] = true
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", ep.Key(), err)
			continue
		}
		on := strings.Contains(ep.Variant, "posture=on")
		saw := ep.Variant + " guidance=" + fmt.Sprint(on)
		if !strings.Contains(string(b), saw) {
			t.Errorf("%s (variant %q): its track did not see %q:\n%s", ep.Key(), ep.Variant, saw, b)
		}
		if label := map[bool]string{false: "general", true: "coding"}[on]; ep.Posture != label {
			t.Errorf("%s: posture label %q, want %q", ep.Key(), ep.Posture, label)
		}
	}
	if len(paths) != len(want) {
		t.Errorf("%d episodes wrote %d trajectory files", len(want), len(paths))
	}
}

// TestSettingsDimensionsRunEachVariant: with --max-turns 5,25 --posture
// off,on each task × track × seed runs once per variant, with that
// variant's values, into a file of its own; run.json records the
// dimensions and the first values.
func TestSettingsDimensionsRunEachVariant(t *testing.T) {
	spec := settingsDimSpec(t, 1, 2)
	s, err := runner.NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Plan()) != 2*1*4*2 {
		t.Fatalf("the plan holds %d episodes, want 2 tasks × 1 track × 4 variants × 2 seeds = 16", len(s.Plan()))
	}
	settingsExecute(t, s, 0)
	data := read(t, spec.Dir)
	if !slices.EqualFunc(data.Run.Dimensions, spec.Dimensions, func(a, b record.Dimension) bool { return a.Name == b.Name && slices.Equal(a.Values, b.Values) }) ||
		data.Run.MaxTurns != 5 || data.Run.Posture != "off" {
		t.Errorf("run.json: dimensions %+v, max_turns %d, posture %q", data.Run.Dimensions, data.Run.MaxTurns, data.Run.Posture)
	}
	settingsCheckEpisodes(t, data, s.Plan())
	variants := map[string]int{}
	for _, ep := range data.Episodes {
		variants[ep.Variant]++
	}
	for _, v := range []string{"max-turns=5 posture=off", "max-turns=5 posture=on", "max-turns=25 posture=off", "max-turns=25 posture=on"} {
		if variants[v] != 4 {
			t.Errorf("variant %q has %d episodes, want 4 (%v)", v, variants[v], variants)
		}
	}
}

// TestSettingsDimensionsResume: a run of variants stopped early is
// finished by --resume, which redoes only what is missing.
func TestSettingsDimensionsResume(t *testing.T) {
	spec := settingsDimSpec(t, 1, 2)
	s, err := runner.NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	settingsExecute(t, s, 5)
	r, err := runner.Resume(spec.Dir, pyramidTasks(), runner.ResumeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pending := len(r.Pending())
	if pending == 0 || pending >= 16 {
		t.Fatalf("%d of 16 pending after a stop at 5", pending)
	}
	settingsExecute(t, r, 0)
	settingsCheckEpisodes(t, read(t, spec.Dir), s.Plan())
	if n := resumePending(t, spec.Dir); n != 0 {
		t.Errorf("%d still pending", n)
	}
}

// TestSettingsDimensionsShards: the shards of a run of variants hold its
// whole plan between them once, each (task, variant, seed) group whole.
func TestSettingsDimensionsShards(t *testing.T) {
	all := map[string]int{}
	group := map[string]int{}
	for i := 1; i <= 3; i++ {
		spec := settingsDimSpec(t, 1, 2)
		spec.Tracks = []string{"oracle", "workflow"}
		spec.Shard = &record.Shard{Index: i, Count: 3}
		s, err := runner.NewRun(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range s.Plan() {
			all[j.Key()]++
			g := j.Task.Name + "|" + j.Variant + "|" + fmt.Sprint(j.Seed)
			if p, ok := group[g]; ok && p != i {
				t.Errorf("group %s is split between shards %d and %d", g, p, i)
			}
			group[g] = i
		}
	}
	whole, err := runner.NewRun(settingsDimSpec(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * 2 * 4 * 2; len(all) != want || len(whole.WholePlan())*2 != want {
		t.Errorf("the shards hold %d distinct episodes, want %d", len(all), want)
	}
	for k, n := range all {
		if n != 1 {
			t.Errorf("%s is in %d shards", k, n)
		}
	}
}

// TestSettingsDimensionsTwinsStayWithinAVariant: a repeated seed makes a
// twin within each variant, never across.
func TestSettingsDimensionsTwinsStayWithinAVariant(t *testing.T) {
	s, err := runner.NewRun(settingsDimSpec(t, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	repeats := map[string][]int{}
	for _, j := range s.Plan() {
		k := j.Task.Name + "|" + j.Variant
		repeats[k] = append(repeats[k], j.Repeat)
	}
	for k, r := range repeats {
		if !slices.Equal(r, []int{0, 1}) {
			t.Errorf("%s: repeats %v, want one first use and one twin", k, r)
		}
	}
}

// TestSettingsDimensionsPlanCounts: the dry run's plan counts the variants
// and bounds each variant's episodes by its own budget: a run of
// --max-turns 5,25 costs what a run of 5 and a run of 25 cost together.
func TestSettingsDimensionsPlanCounts(t *testing.T) {
	spec := func(turns []string) runner.Spec {
		s := pyramidSpec(t, []string{"agent"}, 1, 2)
		s.MaxTurns = 5
		if len(turns) > 1 {
			s.Dimensions = []record.Dimension{{Name: "max-turns", Values: turns}}
		} else {
			fmt.Sscan(turns[0], &s.MaxTurns)
		}
		return s
	}
	of := func(sp runner.Spec) plan.Plan {
		s, err := runner.NewRun(sp)
		if err != nil {
			t.Fatal(err)
		}
		p, err := plan.Of(s, "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	both, five, twentyFive := of(spec([]string{"5", "25"})), of(spec([]string{"5"})), of(spec([]string{"25"}))
	if both.Episodes != 8 || both.Total != 8 || both.Pending != 8 || !strings.Contains(both.Dims(), "2 variants") {
		t.Errorf("plan: %d episodes, %d total, %d pending, %q", both.Episodes, both.Total, both.Pending, both.Dims())
	}
	if want := five.Cost.Add(twentyFive.Cost); both.Cost != want || five.Cost.Calls == twentyFive.Cost.Calls {
		t.Errorf("cost %+v, want %+v (5 turns %+v, 25 turns %+v)", both.Cost, want, five.Cost, twentyFive.Cost)
	}
}

// TestSettingsNoDimensionsAsBefore: a run without dimensions records no
// dimensions and no variant, and files its trajectories as before.
func TestSettingsNoDimensionsAsBefore(t *testing.T) {
	spec := pyramidSpec(t, []string{"oracle"}, 1)
	s, err := runner.NewRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	settingsExecute(t, s, 0)
	runJSON, _ := os.ReadFile(spec.Dir + "/run.json")
	eps, _ := os.ReadFile(spec.Dir + "/episodes.jsonl")
	if strings.Contains(string(runJSON), "dimensions") || strings.Contains(string(eps), "variant") {
		t.Errorf("a run without dimensions wrote them:\n%s\n%s", runJSON, eps)
	}
	if _, err := os.Stat(spec.Dir + "/trajectories/quick_a/oracle/seed-1.jsonl"); err != nil {
		t.Error(err)
	}
}

// TestSettingsDimensionsRecordPlanAgrees: run.json's plan as arithmetic
// (record.Run.Plan, which the report counts what is missing by) holds, for
// each shard of a run of variants, as many episodes as the runner plans,
// and each of them.
func TestSettingsDimensionsRecordPlanAgrees(t *testing.T) {
	for _, shard := range []*record.Shard{nil, {Index: 1, Count: 3}, {Index: 2, Count: 3}, {Index: 3, Count: 3}} {
		spec := settingsDimSpec(t, 1, 2, 1)
		spec.Tracks, spec.Shard = []string{"oracle", "workflow"}, shard
		s, err := runner.NewRun(spec)
		if err != nil {
			t.Fatal(err)
		}
		p := s.Run.Plan()
		n := 0
		for _, c := range p.Cells() {
			n += c.Episodes
		}
		if n != len(s.Plan()) {
			t.Errorf("shard %v: run.json's plan holds %d episodes, the runner's %d", shard, n, len(s.Plan()))
		}
		for _, j := range s.Plan() {
			if !p.Holds(j.Task.Name, j.Track, j.Model, j.Variant, j.Seed, j.Repeat) {
				t.Errorf("shard %v: run.json's plan lacks %s", shard, j.Key())
			}
		}
	}
}
