package runner_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bench/model/modeltest"
	"bench/record"
	"bench/report"
)

// TestPyramidShardsCoverThePlanOnce runs one plan whole and in three
// shards: every episode is in exactly one shard, each shard records its
// part, a finished shard resumes with nothing left to do, and the shards
// merge into the full run's report with no settings footnote.
// (It was cmd/bench's TestRunShardsCoverThePlanOnce, through the CLI and
// real Python.)
func TestPyramidShardsCoverThePlanOnce(t *testing.T) {
	t.Parallel()
	full := execute(t, pyramidSpec(t, []string{"oracle"}, 1, 2, 3, 1), nil)
	whole := read(t, full.Dir)
	if len(whole.Episodes) != 2*4 {
		t.Fatalf("the full run holds %d episodes, want 8", len(whole.Episodes))
	}
	seen := map[string]int{}
	var parts []record.Data
	for i := 1; i <= 3; i++ {
		spec := pyramidSpec(t, []string{"oracle"}, 1, 2, 3, 1)
		spec.Shard = &record.Shard{Index: i, Count: 3}
		s := execute(t, spec, nil)
		data := read(t, s.Dir)
		if sh := data.Run.Shard; sh == nil || *sh != *spec.Shard {
			t.Errorf("shard %d: run.json shard %v", i, sh)
		}
		if len(data.Episodes) == 0 {
			t.Errorf("shard %d ran nothing", i)
		}
		parts = append(parts, data)
		for _, ep := range data.Episodes {
			seen[ep.Key()]++
		}
		if n := resumePending(t, s.Dir); n != 0 {
			t.Errorf("a resume of finished shard %d would run %d episodes", i, n)
		}
	}
	if len(seen) != len(whole.Episodes) {
		t.Errorf("the shards hold %d distinct episodes, the full run %d", len(seen), len(whole.Episodes))
	}
	for _, ep := range whole.Episodes {
		if seen[ep.Key()] != 1 {
			t.Errorf("%s is in %d shards, want 1", ep.Key(), seen[ep.Key()])
		}
	}
	one, merged := report.FromData([]record.Data{whole}).Report(), report.FromData(parts).Report()
	if !reflect.DeepEqual(reportNumbers(one), reportNumbers(merged)) || !reflect.DeepEqual(one.Tracks, merged.Tracks) {
		t.Errorf("the merged shards' report differs from the full run's:\n%+v\n%+v", reportNumbers(merged), reportNumbers(one))
	}
	for _, f := range merged.Footnotes {
		if strings.Contains(f.Text, "differ") {
			t.Errorf("the merged shards get a footnote: %s", f.Text)
		}
	}
}

// reportNumbers is what a report says about the episodes, without naming runs.
func reportNumbers(rep *report.Report) []report.Row {
	rows := make([]report.Row, len(rep.Rows))
	for i, r := range rep.Rows {
		r.Runs = nil
		rows[i] = r
	}
	return rows
}

// solving answers every call with a short text: the fake track only
// needs an answer (grading passes nothing: the tasks' test command runs no test).
var solving = modeltest.Always(modeltest.Text("done"))

// TestPyramidTwoHosts spreads a run over two fake servers: both take
// episodes, each episode names its host, and twins run on the same host.
// (It was cmd/bench's TestRunTwoHosts.)
func TestPyramidTwoHosts(t *testing.T) {
	t.Parallel()
	a, b := modeltest.NewOllama(t, solving), modeltest.NewOllama(t, solving)
	spec := pyramidSpec(t, []string{"workflow"}, 1, 2, 3, 1, 2, 3)
	spec.Hosts = []string{a.URL, b.URL}
	s := execute(t, spec, nil)
	data := read(t, s.Dir)
	if len(data.Run.Hosts) != 2 || len(data.Episodes) != 12 {
		t.Fatalf("run.json hosts %v, %d episodes; want 2 hosts, 12 episodes", data.Run.Hosts, len(data.Episodes))
	}
	byHost := map[string]int{}
	twinHost := map[string]string{}
	for _, ep := range data.Episodes {
		byHost[ep.Host]++
		if ep.ExitReason != record.ExitDone || ep.Lost() {
			t.Errorf("%s: exit %s, lost %v (%s)", ep.Key(), ep.ExitReason, ep.Lost(), ep.Error)
		}
		k := ep.Task + "/" + string(rune('0'+ep.Seed))
		if h, ok := twinHost[k]; ok && h != ep.Host {
			t.Errorf("twins of %s ran on %s and %s", k, h, ep.Host)
		}
		twinHost[k] = ep.Host
	}
	if byHost[data.Run.Hosts[0]] == 0 || byHost[data.Run.Hosts[1]] == 0 || len(byHost) != 2 {
		t.Errorf("episodes per host: %v; want both hosts used and named", byHost)
	}
	if len(a.Requests()) == 0 || len(b.Requests()) == 0 {
		t.Errorf("requests: %d and %d; want both servers asked", len(a.Requests()), len(b.Requests()))
	}
}

// TestPyramidSurvivesAHostGoingAway stops one of two servers mid-run: it
// is taken out of the pool with a warning and the run finishes on the
// other, every episode standing. (It was cmd/bench's
// TestRunSurvivesAHostGoingAway.)
func TestPyramidSurvivesAHostGoingAway(t *testing.T) {
	t.Parallel()
	a := modeltest.NewOllama(t, solving)
	var b *modeltest.Server
	var calls atomic.Int32
	b = modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(modeltest.Request) modeltest.Reply {
		if calls.Add(1) == 2 {
			go b.Stop() // killed while it answers its second call
			return modeltest.Hang()
		}
		return modeltest.Text("done")
	})))
	spec := pyramidSpec(t, []string{"workflow"}, 1, 2, 3, 4)
	spec.Hosts = []string{a.URL, b.URL}
	// The pool's own wait for a refusing server (PoolRetryWindow, 5 s) is
	// TestServerConfigsWaitLessInAPool's; here it is short.
	spec.Model.RetryWindow = 200 * time.Millisecond
	var mu sync.Mutex
	var warnings []string
	s := execute(t, spec, func(w string) { mu.Lock(); warnings = append(warnings, w); mu.Unlock() })
	if !strings.Contains(strings.Join(warnings, "\n"), b.URL+" taken out of the pool") {
		t.Errorf("no word of the lost server %s: %q", b.URL, warnings)
	}
	data := read(t, s.Dir)
	if len(data.Episodes) < 8 {
		t.Fatalf("%d episodes stand, want 8", len(data.Episodes))
	}
	standing := map[string]record.Episode{}
	for _, ep := range data.Episodes {
		standing[ep.Key()] = ep // the later line stands
	}
	if len(standing) != 8 {
		t.Fatalf("%d distinct episodes, want 8", len(standing))
	}
	for _, ep := range standing {
		if ep.ExitReason != record.ExitDone || ep.Lost() || ep.Host != a.URL && ep.Host != b.URL {
			t.Errorf("%s on %s: exit %s, lost %v (%s)", ep.Key(), ep.Host, ep.ExitReason, ep.Lost(), ep.Error)
		}
	}
	if n := resumePending(t, s.Dir); n != 0 {
		t.Errorf("a resume would run %d episodes again, want 0", n)
	}
}

// TestPyramidTwoModels makes the model a dimension: each episode names its
// model, trajectories sit in a folder per model, run.json keeps both
// digests, and a resume finds the run finished. (cmd/bench's
// TestRunTwoModels keeps what the report, show and the page make of it.)
func TestPyramidTwoModels(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewOllama(t, solving)
	srv.SetModels(
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:aaaa", Capabilities: []string{"completion", "tools"}},
		modeltest.Model{Name: "gemma3:4b", Digest: "sha256:bbbb", Capabilities: []string{"completion", "tools"}},
	)
	spec := pyramidSpec(t, []string{"workflow", "agent"}, 1, 2)
	spec.Hosts = []string{srv.URL}
	spec.Model.Model, spec.Models = "qwen3:8b,gemma3:4b", []string{"qwen3:8b", "gemma3:4b"}
	s := execute(t, spec, nil)
	data := read(t, s.Dir)
	want := []record.ModelRef{{Name: "qwen3:8b", Digest: "sha256:aaaa"}, {Name: "gemma3:4b", Digest: "sha256:bbbb"}}
	if !reflect.DeepEqual(data.Run.Models, want) || len(data.Episodes) != 16 {
		t.Fatalf("run.json models %v, %d episodes; want %v and 16", data.Run.Models, len(data.Episodes), want)
	}
	perModel := map[string]int{}
	for _, ep := range data.Episodes {
		perModel[ep.Model]++
	}
	if perModel["qwen3:8b"] != 8 || perModel["gemma3:4b"] != 8 {
		t.Errorf("episodes per model: %v", perModel)
	}
	asked := map[string]int{}
	for _, r := range srv.Requests() {
		asked[r.Model]++
	}
	if asked["qwen3:8b"] == 0 || asked["gemma3:4b"] == 0 {
		t.Errorf("chat requests per model: %v; want both models asked", asked)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "trajectories", "quick_a", "agent", "gemma3-4b", "seed-2.jsonl")); err != nil {
		t.Errorf("no trajectory in the model's folder: %v", err)
	}
	if m := data.MissingTrajectories(); len(m) != 0 {
		t.Errorf("trajectories not found: %v", m)
	}
	if n := resumePending(t, s.Dir); n != 0 {
		t.Errorf("a resume of the finished two-model run would run %d episodes", n)
	}
}
