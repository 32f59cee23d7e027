package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
	"bench/trackfacts"
)

// showRun writes a run folder's trajectories (leap_year and slugify, the
// workflow and agent tracks, seed 1; slugify agent's ends naming a kept
// workspace) and returns its data, its lines in no particular order.
func showRun(t *testing.T) record.Data {
	t.Helper()
	dir := t.TempDir()
	var eps []record.Episode
	for _, task := range []string{"slugify", "leap_year"} {
		for _, track := range []string{trackfacts.Agent, trackfacts.Workflow} {
			writeEnd(t, filepath.Join(dir, "trajectories", task, track, "seed-1.jsonl"),
				record.Event{Kind: record.EventEnd, Exit: record.ExitDone, Path: map[bool]string{true: "/tmp/kept-ws"}[task == "slugify" && track == trackfacts.Agent]})
			eps = append(eps, record.Episode{Task: task, Track: track, Seed: 1, ExitReason: record.ExitDone})
		}
	}
	return record.Data{Dir: dir, Episodes: eps}
}

// writeEnd writes a trajectory of the one event end at path, making its
// folders.
func writeEnd(t *testing.T, path string, end record.Event) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(end)
	if err := os.WriteFile(path, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSortFollowsTheTracksOrder: entries sort by task, then track in
// trackfacts' order (not by name), then seed.
func TestSortFollowsTheTracksOrder(t *testing.T) {
	es := []Entry{{Task: "b", Track: trackfacts.Agent, Seed: 1}, {Task: "a", Track: trackfacts.Agent, Seed: 2}, {Task: "a", Track: trackfacts.Workflow, Seed: 3}, {Task: "a", Track: trackfacts.Agent, Seed: 1}}
	Sort(es)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	want := "a/workflow/seed-3 a/agent/seed-1 a/agent/seed-2 b/agent/seed-1"
	if trackfacts.Compare(trackfacts.Workflow, trackfacts.Agent) > 0 {
		want = "a/agent/seed-1 a/agent/seed-2 a/workflow/seed-3 b/agent/seed-1"
	}
	if strings.Join(got, " ") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestShowNoMatchNamesTheNearest: a --task no episode has lists every
// episode, with an example of how to pick one, and is an error naming the
// nearest task the run has.
func TestShowNoMatchNamesTheNearest(t *testing.T) {
	data := showRun(t)
	var out, warn strings.Builder
	err := Show(&out, &warn, data, Request{Filter: Filter{Task: "slugfy"}, Format: "text"})
	if err == nil || !strings.HasSuffix(err.Error(), "; did you mean --task slugify?") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(out.String(), "no episode in "+data.Dir+" matches; its episodes are") || !strings.Contains(out.String(), "bench show "+data.Dir+" --task slugify --track agent --seed 1 --repeat 0") {
		t.Errorf("listing:\n%s", out.String())
	}
}

// TestShowOneEpisode: a filter that picks one episode writes its
// transcript, with the causes Explain finds and the kept workspace; in
// JSON, its events and causes.
func TestShowOneEpisode(t *testing.T) {
	data := showRun(t)
	explained := 0
	explain := func(record.Data, record.Episode) ([]record.Cause, record.CausesHow, string) {
		explained++
		return nil, "absent", "a test"
	}
	var out, warn strings.Builder
	req := Request{Filter: Filter{Task: "slugify", Track: trackfacts.Agent}, Format: "text", Explain: explain}
	if err := Show(&out, &warn, data, req); err != nil {
		t.Fatal(err)
	}
	if explained != 1 || !strings.HasSuffix(out.String(), "\nThe episode's workspace was kept at /tmp/kept-ws\n") {
		t.Errorf("explained %d times; transcript:\n%s", explained, out.String())
	}
	out.Reset()
	req.Format = "json"
	if err := Show(&out, &warn, data, req); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Task   string         `json:"task"`
		Status string         `json:"status"`
		Causes *causesJSON    `json:"causes"`
		Events []record.Event `json:"events"`
	}
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || doc.Task != "slugify" || doc.Causes == nil || doc.Causes.How != "absent" || doc.Causes.List == nil || len(doc.Events) != 1 {
		t.Errorf("json %+v (%v):\n%s", doc, err, out.String())
	}
}

// TestShowListJSON: a filter that picks several episodes lists them in
// JSON with how many matched.
func TestShowListJSON(t *testing.T) {
	data := showRun(t)
	var out, warn strings.Builder
	if err := Show(&out, &warn, data, Request{Filter: Filter{Task: "leap_year"}, Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Matched  int         `json:"matched"`
		Episodes []entryJSON `json:"episodes"`
	}
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || doc.Matched != 2 || len(doc.Episodes) != 2 || doc.Episodes[0].Status != "passed" && doc.Episodes[0].Status != "failed" {
		t.Errorf("%+v (%v)", doc, err)
	}
}

// TestShowDiffWithoutTwins: --diff on a run that holds no twins lists the
// episode and says that the run holds none.
func TestShowDiffWithoutTwins(t *testing.T) {
	data := showRun(t)
	var out, warn strings.Builder
	err := Show(&out, &warn, data, Request{Filter: Filter{Task: "leap_year", Track: trackfacts.Agent}, Format: "text", Diff: &[2]int{0, 1}})
	if err == nil || !strings.Contains(err.Error(), "no episode with repeat 1 matches") || !strings.HasSuffix(err.Error(), "and this run holds no twins") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(out.String(), "bench show --diff "+data.Dir) {
		t.Errorf("listing:\n%s", out.String())
	}
}
