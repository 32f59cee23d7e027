package runner

import (
	"reflect"
	"testing"

	"bench/record"
	"bench/tasks"
)

func keys(jobs []Job) []string {
	var ks []string
	for _, j := range jobs {
		ks = append(ks, j.Key())
	}
	return ks
}

func TestPlanOrderAndTwins(t *testing.T) {
	ts := []tasks.Task{{Name: "a"}, {Name: "b"}}
	got := keys(PlanVariants(ts, []string{"workflow", "agent"}, []string{""}, []string{""}, []int{1, 2, 1}))
	want := []string{
		"a/workflow/seed-1", "a/agent/seed-1", "b/workflow/seed-1", "b/agent/seed-1",
		"a/workflow/seed-2", "a/agent/seed-2", "b/workflow/seed-2", "b/agent/seed-2",
		"a/workflow/seed-1-r1", "a/agent/seed-1-r1", "b/workflow/seed-1-r1", "b/agent/seed-1-r1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plan\n got %q\nwant %q", got, want)
	}
}

func TestPlanTripleSeed(t *testing.T) {
	got := keys(PlanVariants([]tasks.Task{{Name: "a"}}, []string{"oracle"}, []string{""}, []string{""}, []int{3, 3, 3}))
	want := []string{"a/oracle/seed-3", "a/oracle/seed-3-r1", "a/oracle/seed-3-r2"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestPendingSkipsFinishedRedoesInterrupted(t *testing.T) {
	plan := PlanVariants([]tasks.Task{{Name: "a"}}, []string{"workflow", "agent"}, []string{""}, []string{""}, []int{1, 1})
	done := []record.Episode{
		{Task: "a", Track: "workflow", Seed: 1, ExitReason: record.ExitDone},
		{Task: "a", Track: "agent", Seed: 1, ExitReason: record.ExitError},
		{Task: "a", Track: "workflow", Seed: 1, Repeat: 1, ExitReason: record.ExitInterrupted},
	}
	got := keys(Pending(plan, done))
	want := []string{"a/workflow/seed-1-r1", "a/agent/seed-1-r1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
