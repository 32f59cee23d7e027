package sweep

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// plan is the bench run flags of every sweep here and of its one-machine
// twin: 2 tasks × 3 seeds (seed 1 twice) × 2 tracks, 12 episodes in 4
// groups of one task and seed, which the shards share out.
var plan = []string{"--tasks", "leap_year,parse_date", "--tracks", "workflow,agent", "--seeds", "1,2,1", "--timeout", "1m", "--retry-window", "10s"}

// planEpisodes is how many episodes plan holds.
const planEpisodes = 12

// oneMachine runs plan into dir against the server at host, in one run of
// the bench binary exe.
func oneMachine(exe, host, dir string) error {
	_, err := benchOutput(exe, filepath.Dir(dir), os.Environ(), append([]string{"run", "--host", host, "--parallel", "2", "--out", dir, "--format", "json"}, plan...)...)
	return err
}

// oneMachineRun is the plan run on one machine, once for the suite: the
// fake model answers the same wherever it runs, so every sweep compares
// with this one run.
var oneMachineRun struct {
	once sync.Once
	done chan struct{}
	dir  string
	err  error
}

// startOneMachine starts the one-machine run on a goroutine beside the
// calling test, unless a test did before; the function it returns waits
// for the run and returns its folder. The run's server lives as long as
// the test that started it, which waits for the run unless it fails first.
func startOneMachine(t *testing.T) func() string {
	r := &oneMachineRun
	exe := bench(t)
	r.once.Do(func() {
		r.done = make(chan struct{})
		srv := newFakeModel(t).serve(t)
		r.dir = filepath.Join(suite.tmp, "one")
		go func() {
			defer close(r.done)
			r.err = oneMachine(exe, srv.URL, r.dir)
		}()
	})
	return func() string {
		t.Helper()
		<-r.done
		if r.err != nil {
			t.Fatalf("the one-machine run: %v", r.err)
		}
		return r.dir
	}
}

// line is what the comparison reads of one line of episodes.jsonl, by the
// field names of the results format (docs/RESULTS.md), not through bench's
// own reader.
type line struct {
	Task                string   `json:"task"`
	Track               string   `json:"track"`
	Model               string   `json:"model"`
	Seed                int      `json:"seed"`
	Repeat              int      `json:"repeat"`
	Passed              bool     `json:"passed"`
	TestsPassed         int      `json:"tests_passed"`
	TestsTotal          int      `json:"tests_total"`
	FailedTests         []string `json:"failed_tests"`
	ExitReason          string   `json:"exit_reason"`
	Turns               int      `json:"turns"`
	ModelCalls          int      `json:"model_calls"`
	ToolCalls           []string `json:"tool_calls"`
	PromptTokens        int      `json:"prompt_tokens"`
	CompletionTokens    int      `json:"completion_tokens"`
	EstPromptTokens     int      `json:"est_prompt_tokens"`
	EstCompletionTokens int      `json:"est_completion_tokens"`
	Error               string   `json:"error"`
}

// key names an episode of the plan.
func (l line) key() string {
	return fmt.Sprintf("%s/%s/%s/seed-%d-r%d", l.Task, l.Track, l.Model, l.Seed, l.Repeat)
}

// lines reads every line of dir/episodes.jsonl, in order.
func lines(t *testing.T, dir string) []line {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "episodes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ls []line
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: a line that is not JSON: %v\n%s", f.Name(), err, sc.Bytes())
		}
		ls = append(ls, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ls
}

// episodes is the outcome of every episode of the run folders dirs, by key.
// Each key must end in exactly one finished line: an earlier line of the
// same key is allowed only if it was interrupted (bench run --resume redoes
// those), and redone says how many were; anything else is an episode
// counted twice, and fails t.
func episodes(t *testing.T, dirs ...string) (final map[string]line, redone int) {
	t.Helper()
	final = map[string]line{}
	where := map[string]string{}
	for _, dir := range dirs {
		for _, l := range lines(t, dir) {
			k := l.key()
			if prev, ok := final[k]; ok {
				if prev.ExitReason != "interrupted" || where[k] != dir {
					t.Errorf("%s is counted twice: in %s (exit %s) and %s", k, where[k], prev.ExitReason, dir)
				}
				redone++
			}
			final[k], where[k] = l, dir
		}
	}
	for k, l := range final {
		if l.ExitReason == "interrupted" || l.Error != "" {
			t.Errorf("%s in %s did not finish: exit %s, error %q", k, where[k], l.ExitReason, l.Error)
		}
	}
	return final, redone
}

// sameEpisodes fails t unless the sweep's episodes are the one machine's,
// one for one: the same keys, each passed or failed the same tests with the
// same tokens, tool calls and turns.
func sameEpisodes(t *testing.T, one, sweep map[string]line) {
	t.Helper()
	if len(one) != planEpisodes {
		t.Errorf("the one-machine run holds %d episodes, want %d", len(one), planEpisodes)
	}
	for _, k := range sortedKeys(one) {
		s, ok := sweep[k]
		switch {
		case !ok:
			t.Errorf("%s is missing from the sweep", k)
		case !reflect.DeepEqual(s, one[k]):
			t.Errorf("%s differs:\nsweep       %+v\none machine %+v", k, s, one[k])
		}
	}
	for _, k := range sortedKeys(sweep) {
		if _, ok := one[k]; !ok {
			t.Errorf("the sweep has %s, which the plan has not", k)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// variety fails t unless the episodes pass and fail in both tracks, with
// tests failing in part, so that the comparison compares real work.
func variety(t *testing.T, eps map[string]line) {
	t.Helper()
	seen := map[string]bool{}
	for _, l := range eps {
		seen[fmt.Sprintf("%s passed=%v", l.Track, l.Passed)] = true
		if !l.Passed && l.TestsPassed > 0 {
			seen["partly failed"] = true
		}
		if l.Track == "agent" && !slices.Contains(l.ToolCalls, "write_file") {
			t.Errorf("%s made no write_file call: %v", l.key(), l.ToolCalls)
		}
		if l.PromptTokens == 0 || l.EstPromptTokens == 0 {
			t.Errorf("%s counted no tokens: %+v", l.key(), l)
		}
	}
	for _, want := range []string{"workflow passed=true", "workflow passed=false", "agent passed=true", "agent passed=false", "partly failed"} {
		if !seen[want] {
			t.Errorf("no episode is %q: the fake model does not do the work it should", want)
		}
	}
}

// reportOf is bench report --format json of dirs, with what names the runs
// taken out ("runs", "run"): the numbers of a merged sweep and of one run
// of the same plan must then be equal.
func reportOf(t *testing.T, dirs ...string) any {
	t.Helper()
	out := runBench(t, "", os.Environ(), append([]string{"report", "--format", "json"}, dirs...)...)
	return decodeReport(t, []byte(out))
}

// decodeReport decodes a JSON report without what names its runs.
func decodeReport(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("report JSON: %v\n%s", err, b)
	}
	return withoutRuns(v)
}

// withoutRuns drops the keys "runs" and "run" at every level of v.
func withoutRuns(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "runs")
		delete(v, "run")
		for k, x := range v {
			v[k] = withoutRuns(x)
		}
	case []any:
		for i, x := range v {
			v[i] = withoutRuns(x)
		}
	}
	return v
}

// sameReport fails t unless the two reports are equal, showing both.
func sameReport(t *testing.T, what string, got, want any) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	gl, wl := strings.Split(string(g), "\n"), strings.Split(string(w), "\n")
	i := 0
	for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
		i++
	}
	t.Errorf("%s differs from the one-machine report from line %d:\n%s\n--- one machine:\n%s", what, i+1,
		strings.Join(gl[max(0, i-5):min(len(gl), i+10)], "\n"), strings.Join(wl[max(0, i-5):min(len(wl), i+10)], "\n"))
}
