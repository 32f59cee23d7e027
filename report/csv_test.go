package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"bench/record"
)

// TestCSVColumnsAreFixed: two runs with different exits, one with lost
// episodes, give CSVs with the same header (run and model first, every exit
// reason, lost); the second's body appended to the first (tail -n +2) reads
// as one table.
func TestCSVColumnsAreFixed(t *testing.T) {
	plain := record.Data{Run: record.Run{ID: "one", Model: "m1"}, Episodes: []record.Episode{episode("t", "agent", 1, 0, true, 10)}}
	lost := episode("t", "agent", 1, 0, false, 0)
	lost.ExitReason, lost.ErrorKind = record.ExitError, record.ErrorServer
	timeout := episode("u", "workflow", 1, 0, false, 5)
	timeout.ExitReason = record.ExitTimeout
	odd := episode("u", "workflow", 2, 0, false, 5)
	odd.ExitReason = "something_new"
	other := record.Data{Run: record.Run{ID: "two", Model: "m2"}, Episodes: []record.Episode{lost, timeout, odd}}

	var a, b bytes.Buffer
	if err := WriteCSV(&a, FromData([]record.Data{plain}).Report()); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&b, FromData([]record.Data{other}).Report()); err != nil {
		t.Fatal(err)
	}
	headA, _, _ := strings.Cut(a.String(), "\n")
	headB, bodyB, _ := strings.Cut(b.String(), "\n")
	if headA != headB {
		t.Fatalf("headers differ:\n%s\n%s", headA, headB)
	}
	if !strings.HasPrefix(headA, "run,model,task,track,n,lost,passed,") {
		t.Errorf("header = %s, want run, model, task, track, n, lost, passed first", headA)
	}
	for _, col := range []string{"exit_done", "exit_max_turns", "exit_token_budget", "exit_timeout", "exit_interrupted", "exit_error", "exit_other", "retries", "cut_replies", "grading_timeouts"} {
		if !strings.Contains(","+headA+",", ","+col+",") {
			t.Errorf("header lacks %s: %s", col, headA)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(a.String() + bodyB)).ReadAll() // tail -n +2
	if err != nil {
		t.Fatalf("the concatenation is not one table: %v", err)
	}
	if len(recs) != 4 {
		t.Fatalf("got %d records, want header + 3 rows:\n%s", len(recs), a.String()+bodyB)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, c := range []struct {
		row       int
		name, val string
	}{
		{1, "run", "one"}, {1, "model", "m1"}, {1, "n", "1"}, {1, "exit_done", "1"}, {1, "exit_timeout", "0"},
		{2, "run", "two"}, {2, "task", "t"}, {2, "n", "0"}, {2, "lost", "1"}, {2, "rate", ""}, {2, "exit_error", "0"},
		{3, "model", "m2"}, {3, "exit_timeout", "1"}, {3, "exit_other", "1"},
	} {
		if got := recs[c.row][col[c.name]]; got != c.val {
			t.Errorf("row %d %s = %q, want %q", c.row, c.name, got, c.val)
		}
	}
}
