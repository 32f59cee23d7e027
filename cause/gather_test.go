package cause_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"bench/cause"
	"bench/model/modeltest"
	"bench/record"
)

// writeFile is an agent reply asking write_file for path with content.
func writeFile(path, content string) modeltest.Reply {
	args, _ := json.Marshal(map[string]string{"path": path, "content": content})
	return modeltest.Calls(modeltest.Call("write_file", string(args)))
}

// TestGatherFindsWitnesses: in one run of receipt_total, the workflow
// writes its partial fix and fails; the agent writes money.py and passes.
// Gather gives the workflow's episode the agent's as a witness. The run is
// the shared receiptRun.
func TestGatherFindsWitnesses(t *testing.T) {
	task, data := receiptRun(t)
	wf, agent := data.Episodes[0], data.Episodes[1]
	if wf.Passed || !agent.Passed {
		t.Fatalf("workflow passed %v, agent passed %v; want the workflow to fail and the agent to pass", wf.Passed, agent.Passed)
	}
	in, warnings, err := cause.Gather(data, wf, taskOf(t, task))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if want := []cause.Witness{{Episode: agent.Key(), Track: "agent", Wrote: []string{"money.py"}}}; !slices.EqualFunc(in.Witnesses, want, sameWitness) {
		t.Fatalf("witnesses %+v, want %+v", in.Witnesses, want)
	}
	got := cause.Derive(in)
	want(t, wf, got, cause.NeedsOtherFile)
	contains(t, got[0], "the passing agent episode "+agent.Key()+" wrote money.py")

	// The passing episode is not explained, and Gather reads nothing else for it.
	if in, _, err := cause.Gather(data, agent, taskOf(t, task)); err != nil || in.Witnesses != nil || cause.Derive(in) != nil {
		t.Errorf("the agent's passing episode: witnesses %v, causes %v, error %v; want none", in.Witnesses, cause.Derive(in), err)
	}
}

func sameWitness(a, b cause.Witness) bool {
	return a.Episode == b.Episode && a.Track == b.Track && slices.Equal(a.Wrote, b.Wrote)
}

// TestGatherFindsABaseline: the agent writes parse_date's partial fix
// without ever running the tests, and stops. Its own trajectory holds no
// test run, so nothing can be compared; Gather takes the first run of the
// workflow's episode of the same task as the baseline, and grading's names
// give wrong_fix. Given the output of the tests on the written file (the
// workflow's run after the same partial fix, standing in for grading's own
// output, which runs do not record yet), the comparison sees the masked
// failure. The run is the shared parseDateRun.
func TestGatherFindsABaseline(t *testing.T) {
	task, data := parseDateRun(t)
	wf, agent := data.Episodes[0], data.Episodes[1]
	read, _, err := cause.Read(data, agent, taskOf(t, task))
	if err != nil {
		t.Fatal(err)
	}
	if got := cause.Derive(read); got != nil {
		t.Fatalf("the agent's own trajectory, with no test run: causes %v, want none", got)
	}
	in, warnings, err := cause.Gather(data, agent, taskOf(t, task))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	wfIn, _, err := cause.Read(data, wf, taskOf(t, task))
	if err != nil {
		t.Fatal(err)
	}
	if base, _ := cause.Baseline(wfIn.Events); in.Baseline != base || base == "" {
		t.Fatalf("Gather's baseline is not the workflow's first run:\n%s", in.Baseline)
	}
	got := cause.Derive(in)
	want(t, agent, got, cause.WrongFix)
	contains(t, got[0], "still fail at grading")

	in.Grading = &cause.Grading{Output: lastTestRun(wfIn.Events)}
	got = cause.Derive(in)
	want(t, agent, got, cause.MaskedFailure)
	contains(t, got[0], "datetime.date(2024, 1, 29) != datetime.date(2024, 2, 29)")
}

// lastTestRun is the output of the last test_run event.
func lastTestRun(events []record.Event) string {
	out := ""
	for _, ev := range events {
		if ev.Kind == record.EventTestRun {
			out = ev.Output
		}
	}
	return out
}

// TestReadTornTrajectory: a trajectory whose last line was torn is read
// with a warning, and the causes come from the events before it; a
// missing one is an error naming the file. The trajectory is the
// workflow's of a copy of the shared parseDateRun.
func TestReadTornTrajectory(t *testing.T) {
	task, shared := parseDateRun(t)
	data := copyRun(t, shared)
	ep := data.Episodes[0]
	path := data.TrajectoryPath(ep)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"format":1,"seq":99,"kind":"test_r`)
	f.Close()
	in, warnings, err := cause.Read(data, ep, taskOf(t, task))
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "torn") {
		t.Fatalf("error %v, warnings %v; want one warning of a torn line", err, warnings)
	}
	want(t, ep, cause.Derive(in), cause.MaskedFailure)

	os.Remove(path)
	if _, _, err := cause.Read(data, ep, taskOf(t, task)); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a missing trajectory: error %v, want one naming %s", err, path)
	}
}
