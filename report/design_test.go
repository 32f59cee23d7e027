package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bench/record"
)

// designRun is a synthetic run of four tasks, three with a design and one
// (old_task) without, on the workflow and agent tracks, with random passes
// and some episodes lost to the infrastructure.
func designRun() record.Data {
	run := record.Run{ID: "d", Tracks: []string{"workflow", "agent"}, Tasks: []record.TaskRef{
		{Name: "masked", Archetype: "masked-second-bug", Answers: "nny", Origin: record.OriginBuiltin},
		{Name: "ctrl", Archetype: "control", Answers: "yyy", Origin: record.OriginBuiltin},
		{Name: "helper", Archetype: "fix-in-helper-module", Answers: "nyn", Origin: "/tmp/my-tasks"},
		{Name: "ctrl2", Archetype: "control", Answers: "yyy", Origin: record.OriginBuiltin},
		{Name: "old_task"},
	}}
	rng := rand.New(rand.NewPCG(1, 2))
	var eps []record.Episode
	for _, ref := range run.Tasks {
		for _, track := range run.Tracks {
			for seed := range 5 {
				ep := episode(ref.Name, track, seed, 0, rng.IntN(2) == 0, 10)
				if rng.IntN(4) == 0 {
					ep.Passed, ep.TestsPassed, ep.ExitReason, ep.ErrorKind = false, 0, record.ExitError, record.ErrorUnreachable
				}
				eps = append(eps, ep)
			}
		}
	}
	return record.Data{Run: run, Episodes: eps}
}

// recount counts, straight from the episodes, the passes and n of each
// track over the tasks whose design satisfies keep; lost episodes are left out.
func recount(d record.Data, keep func(record.TaskRef) bool) map[string][2]int {
	in := map[string]bool{}
	for _, ref := range d.Run.Tasks {
		if ref.Answers != "" && keep(ref) {
			in[ref.Name] = true
		}
	}
	out := map[string][2]int{}
	for _, ep := range d.Episodes {
		if !in[ep.Task] || ep.Lost() {
			continue
		}
		c := out[ep.Track]
		c[1]++
		if ep.Passed {
			c[0]++
		}
		out[ep.Track] = c
	}
	return out
}

func counted(r DesignRow) map[string][2]int {
	out := map[string][2]int{}
	for _, c := range r.Tracks {
		out[c.Track] = [2]int{c.Passed, c.N}
	}
	return out
}

func TestDesignRowsMatchARecount(t *testing.T) {
	d := designRun()
	rep := FromData([]record.Data{d}).Report()
	var questions, archetypes []DesignRow
	for _, r := range rep.Design {
		if r.Question > 0 {
			questions = append(questions, r)
		} else {
			archetypes = append(archetypes, r)
		}
	}
	// Q1: no (masked, helper), yes (ctrl, ctrl2); Q2: no (masked), yes (3); Q3: no (helper), yes (3).
	if len(questions) != 6 {
		t.Fatalf("question rows = %+v, want six", questions)
	}
	for _, r := range questions {
		want := recount(d, func(ref record.TaskRef) bool { return (ref.Answers[r.Question-1] == 'y') == (r.Answer == "yes") })
		if got := counted(r); !equalCounts(got, want) {
			t.Errorf("Q%d %s: %v, recount %v", r.Question, r.Answer, got, want)
		}
		if slices.Contains(r.Tasks, "old_task") {
			t.Errorf("Q%d %s counts old_task, which has no design", r.Question, r.Answer)
		}
	}
	var names []string
	for _, r := range archetypes {
		names = append(names, r.Archetype)
		want := recount(d, func(ref record.TaskRef) bool { return ref.Archetype == r.Archetype })
		if got := counted(r); !equalCounts(got, want) {
			t.Errorf("archetype %s: %v, recount %v", r.Archetype, got, want)
		}
	}
	if got := strings.Join(names, " "); got != "control fix-in-helper-module masked-second-bug" {
		t.Errorf("archetypes = %s", got)
	}
	if got := strings.Join(archetypes[0].Tasks, " "); got != "ctrl ctrl2" {
		t.Errorf("control tasks = %s", got)
	}
	if q := questions[0]; q.Question != 1 || q.Answer != "no" || q.Tracks[0].Track+","+q.Tracks[1].Track != "workflow,agent" {
		t.Errorf("first row %+v, want Q1 no with workflow then agent", q)
	}
}

func equalCounts(a, b map[string][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestDesignSectionInEveryFormat(t *testing.T) {
	rep := FromData([]record.Data{designRun()}).Report()
	var text, md, js bytes.Buffer
	if err := WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		for _, want := range []string{"Q1 ", "Does the first test failure point at every line that must change?", "By archetype", "masked-second-bug"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
	var doc struct {
		Design []DesignRow `json:"design"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Design) != len(rep.Design) {
		t.Errorf("JSON design: %d rows (err %v), want %d", len(doc.Design), err, len(rep.Design))
	}
}

// TestDesignOmittedForOldRuns: a run.json without designs has no section.
func TestDesignOmittedForOldRuns(t *testing.T) {
	d := designRun()
	for i := range d.Run.Tasks {
		d.Run.Tasks[i] = record.TaskRef{Name: d.Run.Tasks[i].Name}
	}
	rep := FromData([]record.Data{d}).Report()
	var text, js bytes.Buffer
	WriteText(&text, rep)
	WriteJSON(&js, rep)
	if rep.Design != nil || strings.Contains(text.String(), "archetype") || strings.Contains(js.String(), `"design"`) {
		t.Errorf("a run without designs shows a design section:\n%s\n%s", text.String(), js.String())
	}
}
