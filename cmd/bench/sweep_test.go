package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
	"bench/report"
)

// reportJSON runs bench report --format json over dirs and decodes it.
func reportJSON(t *testing.T, dirs ...string) report.Report {
	t.Helper()
	out, stderr, err := runCLI(t, append([]string{"report", "--format", "json"}, dirs...)...)
	if err != nil {
		t.Fatalf("bench report %v: %v\n%s", dirs, err, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report JSON: %v\n%s", err, out)
	}
	return rep
}

// TestRunTwoModels makes the model a dimension: each episode names its
// model, trajectories sit in a folder per model, run.json keeps both
// digests, and the report keeps the models apart.
func TestRunTwoModels(t *testing.T) {
	fixture.FullOnly(t, "runner's TestPyramidTwoModels")
	t.Parallel()
	solver := testsupport.NewSolver(t)
	srv := modeltest.NewOllama(t, modeltest.Always(modeltest.Func(solver.Reply)))
	srv.SetModels(
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:aaaa", Capabilities: []string{"completion", "tools"}},
		modeltest.Model{Name: "gemma3:4b", Digest: "sha256:bbbb", Capabilities: []string{"completion", "tools"}},
	)
	dir := filepath.Join(t.TempDir(), "models")
	stdout, stderr, err := runCLI(t, "run", "--host", srv.URL, "--model", "qwen3:8b,gemma3:4b", "--tracks", "workflow,agent", "--tasks", "leap_year", "--seeds", "1,2", "--out", dir)
	if err != nil {
		t.Fatalf("two-model run: %v\n%s", err, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []record.ModelRef{{Name: "qwen3:8b", Digest: "sha256:aaaa"}, {Name: "gemma3:4b", Digest: "sha256:bbbb"}}
	if !reflect.DeepEqual(data.Run.Models, want) || len(data.Episodes) != 8 {
		t.Fatalf("run.json models %v, %d episodes; want %v and 8", data.Run.Models, len(data.Episodes), want)
	}
	perModel := map[string]int{}
	for _, ep := range data.Episodes {
		perModel[ep.Model]++
	}
	if perModel["qwen3:8b"] != 4 || perModel["gemma3:4b"] != 4 {
		t.Errorf("episodes per model: %v", perModel)
	}
	if _, err := os.Stat(filepath.Join(dir, "trajectories", "leap_year", "agent", "gemma3-4b", "seed-2.jsonl")); err != nil {
		t.Errorf("no trajectory in the model's folder: %v", err)
	}
	if m := data.MissingTrajectories(); len(m) != 0 {
		t.Errorf("trajectories not found: %v", m)
	}
	rep := reportJSON(t, dir)
	rows := map[string]int{}
	for _, r := range rep.Rows {
		rows[r.Model+"/"+r.Track] = r.N
	}
	if !reflect.DeepEqual(rows, map[string]int{"qwen3:8b/workflow": 2, "qwen3:8b/agent": 2, "gemma3:4b/workflow": 2, "gemma3:4b/agent": 2}) {
		t.Errorf("report rows by model/track: %v", rows)
	}
	for _, m := range rep.McNemar {
		if m.Pairs != 2 || m.Model == "" {
			t.Errorf("McNemar %+v: want 2 pairs within one model", m)
		}
	}
	if !strings.Contains(stdout, "gemma3:4b") {
		t.Errorf("the text report does not name the second model:\n%s", stdout)
	}
	if _, stderr, err := runCLI(t, "run", "--resume", dir); err != nil || !strings.Contains(stderr, "8 already finished") {
		t.Errorf("resume of a finished two-model run: %v\n%s", err, stderr)
	}
	checkShowTwoModels(t, dir)
	checkHTMLTwoModels(t, dir)
}

// checkHTMLTwoModels checks that the HTML page of a two-model run keeps
// the models apart: every element id unique, rows and episodes per model.
func checkHTMLTwoModels(t *testing.T, dir string) {
	t.Helper()
	page, _, err := runCLI(t, "report", dir, "--format", "html")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			t.Errorf("id %q is on two elements of the page", m[1])
		}
		seen[m[1]] = true
	}
	for _, want := range []string{`id="episode-leap_year-agent-gemma3-4b-2-0"`, `id="episode-leap_year-agent-qwen3-8b-2-0"`,
		`<td>leap_year</td><td>agent</td><td>gemma3:4b</td>`, `href="#row-leap_year-agent-gemma3-4b"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// checkShowTwoModels checks that bench show tells the models of a
// two-model run apart: listed, picked with --model, each its own file.
func checkShowTwoModels(t *testing.T, dir string) {
	t.Helper()
	pick := []string{"show", dir, "--task", "leap_year", "--track", "agent", "--seed", "2"}
	list, _, err := runCLI(t, pick...)
	if err != nil || !strings.Contains(list, "qwen3:8b") || !strings.Contains(list, "gemma3:4b") {
		t.Errorf("show without --model (err %v) should list the episode of each model:\n%s", err, list)
	}
	all, _, _ := runCLI(t, "show", dir, "--format", "json")
	if n := strings.Count(all, `"trajectory": "trajectories/`); n != 8 {
		t.Errorf("show lists %d trajectories on disk, want all 8:\n%s", n, all)
	}
	for _, m := range []string{"qwen3:8b", "gemma3:4b"} {
		out, _, err := runCLI(t, append(pick, "--model", m, "--format", "json")...)
		if err != nil || !strings.Contains(out, `"model": "`+m+`"`) {
			t.Errorf("show --model %s (err %v):\n%.600s", m, err, out)
		}
	}
}

// TestRunRefusesBadSweepFlags: each bad --shard, --model, --host or
// --parallel-per-host gets one clear sentence, and nothing is created.
func TestRunRefusesBadSweepFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "0/3"}, "i must be between 1 and n"},
		{[]string{"--shard", "two"}, "give i/n"},
		{[]string{"--shard", "4/3"}, "i must be between 1 and n"},
		{[]string{"--model", "qwen3:8b,qwen3:8b"}, "name each model once"},
		{[]string{"--model", "qwen3:8b,,gemma3:4b"}, "an empty model between commas"},
		{[]string{"--host", "http://127.0.0.1:1,127.0.0.1:1"}, "names the server http://127.0.0.1:1 twice"},
		{[]string{"--parallel-per-host", "-1"}, "--parallel-per-host must be between 0 (--parallel spread over the servers) and"},
	} {
		dir := filepath.Join(t.TempDir(), "bad")
		args := append([]string{"run", "--tracks", "workflow", "--out", dir}, c.args...)
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bench %v: %v; want an error containing %q", args, err, c.want)
		}
		if _, statErr := os.Stat(dir); statErr == nil {
			t.Errorf("bench %v created %s", args, dir)
		}
	}
}
