package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"bench/record"
)

// causeRun is a synthetic run of two designed tasks on the workflow, hybrid
// and agent tracks: random passes, each failure given one or two random
// causes, some failures (an older bench's) none recorded, a few lost
// episodes, and hybrid episodes that called run_workflow at random.
func causeRun(seed uint64) record.Data {
	run := record.Run{ID: "c", Tracks: []string{"workflow", "hybrid", "agent"}, Tasks: []record.TaskRef{
		{Name: "masked", Archetype: "masked-second-bug", Answers: "nny", Origin: record.OriginBuiltin},
		{Name: "ctrl", Archetype: "control", Answers: "yyy", Origin: record.OriginBuiltin},
	}}
	rng := rand.New(rand.NewPCG(seed, 7))
	var eps []record.Episode
	for _, ref := range run.Tasks {
		for _, track := range run.Tracks {
			for s := range 12 {
				ep := episode(ref.Name, track, s, 0, rng.IntN(3) == 0, 100+rng.IntN(900))
				switch {
				case rng.IntN(8) == 0:
					ep.Passed, ep.TestsPassed, ep.ExitReason, ep.ErrorKind = false, 0, record.ExitError, record.ErrorUnreachable
				case !ep.Passed && rng.IntN(5) > 0:
					ep.Causes = []record.Cause{}
					for _, i := range rng.Perm(len(record.CauseVocabulary))[:rng.IntN(3)] {
						ep.Causes = append(ep.Causes, record.Cause{Name: record.CauseVocabulary[i].Name, Evidence: "e"})
					}
				}
				if track == "hybrid" && rng.IntN(2) == 0 {
					ep.WorkflowCalls, ep.WorkflowTokens = 1+rng.IntN(2), rng.IntN(ep.PromptTokens)
				}
				eps = append(eps, ep)
			}
		}
	}
	return record.Data{Run: run, Episodes: eps}
}

// TestCausesMatchARecount: each row's cause counts, its failures without
// recorded causes, the question rows' counts of their causes and the
// hybrid's delegation equal a count made straight from the episodes.
func TestCausesMatchARecount(t *testing.T) {
	for seed := range uint64(5) {
		d := causeRun(seed)
		rep := FromData([]record.Data{d}).Report()
		type key struct{ task, track string }
		causes := map[key]map[string]int{}
		absent, failed := map[key]int{}, map[key]int{}
		type deleg struct{ n, delegated, passed, own, calls, wfTok, tok int }
		dl := map[key]*deleg{}
		for _, ep := range d.Episodes {
			if ep.Lost() {
				continue
			}
			k := key{ep.Task, ep.Track}
			if ep.Track == "hybrid" {
				if dl[k] == nil {
					dl[k] = &deleg{}
				}
				g := dl[k]
				g.n++
				g.tok += ep.PromptTokens + ep.CompletionTokens
				if ep.WorkflowCalls > 0 {
					g.delegated, g.calls, g.wfTok = g.delegated+1, g.calls+ep.WorkflowCalls, g.wfTok+ep.WorkflowTokens
					if ep.Passed {
						g.passed++
					}
				} else if ep.Passed {
					g.own++
				}
			}
			if ep.Passed {
				continue
			}
			failed[k]++
			if ep.Causes == nil {
				absent[k]++
				continue
			}
			if causes[k] == nil {
				causes[k] = map[string]int{}
			}
			seen := map[record.CauseName]bool{}
			for _, c := range ep.Causes {
				if !seen[c.Name] {
					causes[k][string(c.Name)]++
				}
				seen[c.Name] = true
			}
		}
		for _, r := range rep.Rows {
			k := key{r.Task, r.Track}
			if r.CausesAbsent != absent[k] || r.Failed() != failed[k] {
				t.Errorf("seed %d %v: absent %d failed %d, want %d and %d", seed, k, r.CausesAbsent, r.Failed(), absent[k], failed[k])
			}
			got := map[string]int{}
			for _, c := range r.Causes {
				got[c.Name] = c.Count
			}
			if len(got) != len(causes[k]) {
				t.Errorf("seed %d %v: causes %v, want %v", seed, k, got, causes[k])
			}
			for n, c := range causes[k] {
				if got[n] != c {
					t.Errorf("seed %d %v: %s %d, want %d", seed, k, n, got[n], c)
				}
			}
		}
		if len(rep.Delegation) != 2 {
			t.Fatalf("seed %d: %d delegation rows, want one per task", seed, len(rep.Delegation))
		}
		for _, g := range rep.Delegation {
			w := dl[key{g.Task, g.Track}]
			if g.N != w.n || g.Delegated != w.delegated || g.DelegatedPassed != w.passed || g.OwnPassed != w.own ||
				g.WorkflowCalls != w.calls || g.WorkflowTokens != w.wfTok || g.Tokens != w.tok || g.Share == nil ||
				*g.Share != float64(w.wfTok)/float64(w.tok) {
				t.Errorf("seed %d %s: delegation %+v, want %+v", seed, g.Task, g, *w)
			}
		}
		for _, r := range rep.Design {
			if r.Question == 0 {
				continue
			}
			for _, c := range r.Tracks {
				want := 0
				for _, task := range r.Tasks {
					for _, n := range record.CausesFor(r.Question) {
						want += causes[key{task, c.Track}][string(n)]
					}
				}
				if c.QuestionCauses != want {
					t.Errorf("seed %d Q%d %s %s: question causes %d, want %d", seed, r.Question, r.Answer, c.Track, c.QuestionCauses, want)
				}
			}
		}
	}
}

// TestCausesInEveryFormat: the table of causes is in the text, Markdown,
// CSV and JSON formats, and so is the hybrid's delegation.
func TestCausesInEveryFormat(t *testing.T) {
	rep := FromData([]record.Data{causeRun(1)}).Report()
	var text, md, js, cs bytes.Buffer
	for _, w := range []struct {
		f   func(*bytes.Buffer) error
		out *bytes.Buffer
	}{
		{func(b *bytes.Buffer) error { return WriteText(b, rep) }, &text},
		{func(b *bytes.Buffer) error { return WriteMarkdown(b, rep) }, &md},
		{func(b *bytes.Buffer) error { return WriteJSON(b, rep) }, &js},
		{func(b *bytes.Buffer) error { return WriteCSV(b, rep) }, &cs},
	} {
		if err := w.f(w.out); err != nil {
			t.Fatal(err)
		}
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		for _, want := range []string{"Why the failed episodes failed", "not recorded", "The hybrid's delegation", "failed by masked_failure", "bench show RUN_DIR --task masked --track hybrid"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	var doc struct {
		Rows       []Row        `json:"rows"`
		Delegation []Delegation `json:"delegation"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Delegation) != 2 || !slices.ContainsFunc(doc.Rows, func(r Row) bool { return len(r.Causes) > 0 && r.CausesAbsent > 0 }) {
		t.Errorf("the JSON document lacks the causes or the delegation: %d delegation rows", len(doc.Delegation))
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "cause_masked_failure")
	absent := slices.Index(recs[0], "causes_absent")
	if col < 0 || absent < 0 {
		t.Fatalf("the CSV header lacks the cause columns: %v", recs[0])
	}
	for i, r := range rep.Rows {
		if got := recs[i+1][col]; got != strconv.Itoa(r.CauseCount(record.CauseMaskedFailure)) {
			t.Errorf("CSV row %d: masked_failure %s, want %d", i+1, got, r.CauseCount(record.CauseMaskedFailure))
		}
	}
}

// TestDelegationOfAReplacedLine: an episode's later line (a re-run of the
// same key) stands in place of the earlier one, delegation included: a
// hybrid episode that delegated and was run again without delegating
// counts no delegation, and the other way round counts the new one's.
func TestDelegationOfAReplacedLine(t *testing.T) {
	run := record.Run{ID: "r", Tracks: []string{"hybrid"}, Seeds: []int{1, 2}, Model: "m", Tasks: []record.TaskRef{{Name: "t", Origin: record.OriginBuiltin}}}
	first, again := episode("t", "hybrid", 1, 0, true, 500), episode("t", "hybrid", 1, 0, true, 500)
	first.WorkflowCalls, first.WorkflowTokens = 2, 300
	other, otherAgain := episode("t", "hybrid", 2, 0, true, 500), episode("t", "hybrid", 2, 0, true, 500)
	otherAgain.WorkflowCalls, otherAgain.WorkflowTokens = 3, 70
	agg := readWritten(t, run, first, other, again, otherAgain)
	rep := agg.Report()
	if len(rep.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rep.Rows))
	}
	if r := rep.Rows[0]; r.N != 2 || r.Delegated != 1 || r.WorkflowCalls != 3 || r.WorkflowTokens != 70 {
		t.Errorf("n %d, delegated %d, calls %d, tokens %d: want 2, 1, 3, 70 (the later lines')", r.N, r.Delegated, r.WorkflowCalls, r.WorkflowTokens)
	}
}

// TestEpisodeRecordSize keeps an episode's record at 64 bytes: the
// report's memory at a million episodes is mostly these.
func TestEpisodeRecordSize(t *testing.T) {
	if size := unsafe.Sizeof(epRec{}); size > 64 {
		t.Errorf("an episode's record takes %d bytes, want at most 64", size)
	}
}
