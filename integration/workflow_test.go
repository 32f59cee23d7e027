package integration

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"bench/record"
)

// workflowReplyCap keeps the workflow's replies short: the garbage the tiny
// model writes is cut long before it would stop by itself.
const workflowReplyCap = 16

// The one workflow run that several tests read: tiny, seeds 1, 2, 1.
var workflow struct {
	once sync.Once
	dir  string
	res  result
}

// workflowRun runs the workflow track once for the whole suite and returns
// its results folder.
func workflowRun(t *testing.T) string {
	t.Helper()
	workflow.once.Do(func() {
		j := job{model: modelPlain, tracks: "workflow", seeds: "1,2,1", replyCap: workflowReplyCap,
			out: filepath.Join(suite.tmp, "workflow")}
		workflow.res = bench(t, j.args(t)...)
		workflow.dir = j.out
	})
	if workflow.res.code != 0 {
		t.Fatalf("the workflow run failed: %s", workflow.res)
	}
	return workflow.dir
}

// TestWorkflowTwins: with the same seed the real server's sampling repeats
// itself byte for byte, and bench's report says so; another seed differs.
func TestWorkflowTwins(t *testing.T) {
	needFull(t)
	t.Parallel()
	dir := workflowRun(t)
	checkTwins(t, dir, "workflow", true)
}

// checkTwins compares seed-1 with its twin seed-1-r1 (and with seed-2 when
// withOther) in the trajectories and in bench report's text and JSON.
func checkTwins(t *testing.T, dir, track string, withOther bool) {
	t.Helper()
	first, twin := exchange(t, dir, track, "seed-1"), exchange(t, dir, track, "seed-1-r1")
	if len(first) < 2 {
		t.Fatalf("seed-1 has %d request/response events, want at least 2", len(first))
	}
	if !slices.Equal(first, twin) {
		t.Errorf("the seed-1 twins' requests and replies differ:\nseed-1:\n%s\nseed-1-r1:\n%s", strings.Join(first, "\n"), strings.Join(twin, "\n"))
	}
	if withOther {
		r1, r2 := responses(events(t, dir, track, "seed-1")), responses(events(t, dir, track, "seed-2"))
		if len(r2) == 0 || r1[0].Reply.Content == r2[0].Reply.Content {
			t.Errorf("seed 2's first reply is seed 1's: %+v", r2)
		}
	}

	text := bench(t, "report", dir)
	if text.code != 0 {
		t.Fatalf("bench report failed: %s", text)
	}
	if !hasLine(text.stdout, task, track, "seed-1-r1", "identical") {
		t.Errorf("bench report does not say the seed-1 twins are identical:\n%s", text.stdout)
	}
	js := bench(t, "report", dir, flagFormat, "json")
	var rep struct {
		Twins []struct {
			Task, Track string
			Seed        int
			Members     []struct {
				Name      string
				Identical bool
			}
		}
	}
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatalf("bench report --format json: %v\n%s", err, js)
	}
	if len(rep.Twins) != 1 || rep.Twins[0].Seed != 1 || len(rep.Twins[0].Members) != 2 {
		t.Fatalf("want one twin group of seed 1 with two members, got %+v", rep.Twins)
	}
	for _, m := range rep.Twins[0].Members {
		if !m.Identical {
			t.Errorf("report JSON: twin %s not identical", m.Name)
		}
	}
}

// hasLine reports whether one line of text holds every word.
func hasLine(text string, words ...string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		fields := strings.Fields(line)
		if !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(fields, w) }) {
			return true
		}
	}
	return false
}

// TestServerTokenCounts: the server's own token counts are what the episode
// records; the offline estimate's error on the first prompt is logged.
func TestServerTokenCounts(t *testing.T) {
	needFull(t)
	t.Parallel()
	dir := workflowRun(t)
	for name, ep := range episodes(t, dir) {
		evs := events(t, dir, "workflow", strings.TrimPrefix(name, "workflow/"))
		var prompt, completion int
		for _, r := range responses(evs) {
			prompt += r.PromptTokens
			completion += r.CompletionTokens
		}
		if ep.PromptTokens == 0 || ep.PromptTokens != prompt || ep.CompletionTokens != completion {
			t.Errorf("%s: episode records %d prompt + %d completion tokens, its responses %d + %d", name, ep.PromptTokens, ep.CompletionTokens, prompt, completion)
		}
		if ep.CompletionTokens != workflowReplyCap {
			t.Errorf("%s: %d completion tokens, want the reply cap %d (the server's eval_count)", name, ep.CompletionTokens, workflowReplyCap)
		}
	}
	evs := events(t, dir, "workflow", "seed-1")
	var est, server int
	for _, ev := range evs {
		if ev.Kind == record.EventRequest && est == 0 {
			est = ev.EstTokens
		}
		if ev.Kind == record.EventResponse && server == 0 {
			server = ev.PromptTokens
		}
	}
	if est == 0 || server == 0 {
		t.Fatalf("first prompt: estimate %d, server %d; want both", est, server)
	}
	t.Logf("first prompt of %s: the server counts %d tokens, the offline estimate %d (error %+d, %+.1f%%)",
		task, server, est, est-server, 100*float64(est-server)/float64(server))
}

// TestWorkflowCutReply: a reply the server cut at the reply cap is recorded
// with the server's stop reason "length" and counted on the episode.
func TestWorkflowCutReply(t *testing.T) {
	needFull(t)
	t.Parallel()
	dir := workflowRun(t)
	ep := episode(t, dir, "workflow", "seed-1")
	rs := responses(events(t, dir, "workflow", "seed-1"))
	if len(rs) != 1 || rs[0].StopReason != "length" {
		t.Errorf("want one response with stop reason \"length\", got %+v", rs)
	}
	if ep.CutReplies != 1 {
		t.Errorf("episode counts %d cut replies, want 1", ep.CutReplies)
	}
}
