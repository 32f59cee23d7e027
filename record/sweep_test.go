package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoModelRun is sampleRun with two models.
func twoModelRun() Run {
	r := sampleRun()
	r.Model = "qwen3:8b,gemma3:4b"
	r.Models = []ModelRef{{Name: "qwen3:8b", Digest: "sha256:aa"}, {Name: "gemma3:4b", Digest: "sha256:bb"}}
	return r
}

func TestKeyNamesTheModelWhenSet(t *testing.T) {
	ep := Episode{Task: "t", Track: "agent", Seed: 2, Repeat: 1}
	if got := ep.Key(); got != "t/agent/seed-2-r1" {
		t.Errorf("Key without model = %q", got)
	}
	ep.Model = "qwen3:8b"
	if got := ep.Key(); got != "t/agent/qwen3:8b/seed-2-r1" {
		t.Errorf("Key with model = %q", got)
	}
}

func TestTrajectoryPathPerModelOnlyWithSeveralModels(t *testing.T) {
	ep := Episode{Task: "t", Track: "agent", Model: "hf.co/x/y:q4", Seed: 1}
	one := Data{Dir: "D", Run: sampleRun()}
	if got, want := one.TrajectoryPath(ep), filepath.Join("D", "trajectories", "t", "agent", "seed-1.jsonl"); got != want {
		t.Errorf("one-model path = %s, want %s", got, want)
	}
	two := Data{Dir: "D", Run: twoModelRun()}
	if got, want := two.TrajectoryPath(ep), filepath.Join("D", "trajectories", "t", "agent", "hf.co-x-y-q4", "seed-1.jsonl"); got != want {
		t.Errorf("two-model path = %s, want %s", got, want)
	}
}

func TestWriterNestsTrajectoriesOfSeveralModels(t *testing.T) {
	for _, c := range []struct {
		run  Run
		want string
	}{
		{sampleRun(), filepath.Join("trajectories", "leap_year", "agent", "seed-1.jsonl")},
		{twoModelRun(), filepath.Join("trajectories", "leap_year", "agent", "gemma3-4b", "seed-1.jsonl")},
	} {
		dir := t.TempDir()
		w, err := Create(dir, c.run)
		if err != nil {
			t.Fatal(err)
		}
		ep := Episode{Task: "leap_year", Track: "agent", Model: "gemma3:4b", Seed: 1, ExitReason: ExitDone}
		tr, err := w.EpisodeTrajectory(ep)
		if err != nil {
			t.Fatal(err)
		}
		tr.Record(Event{Kind: EventEnd})
		tr.Close()
		if err := w.Append(ep); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if _, err := os.Stat(filepath.Join(dir, c.want)); err != nil {
			t.Errorf("trajectory not at %s: %v", c.want, err)
		}
		data, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if m := data.MissingTrajectories(); len(m) != 0 {
			t.Errorf("reader cannot find the trajectory of %v", m)
		}
	}
}

func TestSameEpisodeOfTwoModelsIsKeptTwice(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, twoModelRun())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"qwen3:8b", "gemma3:4b"} {
		ep := sampleEpisode(1)
		ep.Model = m
		if err := w.Append(ep); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	data, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Episodes) != 2 || len(data.Warnings) != 0 {
		t.Errorf("got %d episodes, warnings %v; want 2, none", len(data.Episodes), data.Warnings)
	}
}

func TestSettingsLeaveOutShardAndHosts(t *testing.T) {
	a, b := sampleRun(), sampleRun()
	b.Shard = &Shard{Index: 2, Count: 3}
	b.Hosts = []string{"http://a:11434", "http://b:11434"}
	b.Host = "http://a:11434"
	if a.SettingsKey() != b.SettingsKey() {
		t.Errorf("shard or hosts change the settings:\n%s\n%s", a.SettingsKey(), b.SettingsKey())
	}
	two := twoModelRun()
	if !strings.Contains(two.SettingsKey(), "sha256:aa,sha256:bb") {
		t.Errorf("a two-model run's settings lack both digests: %s", two.SettingsKey())
	}
}

func TestRunJSONNamesModelsAndShard(t *testing.T) {
	r := twoModelRun()
	r.Shard = &Shard{Index: 1, Count: 3}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"models":[{"name":"qwen3:8b","digest":"sha256:aa"}`, `"shard":{"index":1,"count":3}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("run.json lacks %s: %s", want, b)
		}
	}
	if got := r.Shard.String(); got != "1/3" {
		t.Errorf("Shard.String = %q", got)
	}
}
