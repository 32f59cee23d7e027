package runner

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
)

// fakeInstantModel is a fake Chatter that answers at once with the
// solution file of whichever task's source the request mentions, in the
// workflow's FILE format. It stands in for a model so that a benchmark
// measures the harness alone.
type fakeInstantModel struct{ solutions map[string]string } // source path → solution text

func newFakeInstantModel(b *testing.B, ts []tasks.Task) *fakeInstantModel {
	f := &fakeInstantModel{solutions: map[string]string{}}
	for _, t := range ts {
		sol, err := fs.ReadFile(t.FS, path.Join("solution", t.Source))
		if err != nil {
			b.Fatal(err)
		}
		f.solutions[t.Source] = string(sol)
	}
	return f
}

func (f *fakeInstantModel) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	var text strings.Builder
	for _, m := range req.Messages {
		text.WriteString(m.Content)
	}
	for src, sol := range f.solutions {
		if strings.Contains(text.String(), src) {
			reply := fmt.Sprintf("FILE: %s\n```python\n%s```\n", src, sol)
			return model.Response{Message: model.Message{Role: model.RoleAssistant, Content: reply}, Usage: model.Usage{PromptTokens: 100, CompletionTokens: 100}}, nil
		}
	}
	return model.Response{Message: model.Message{Role: model.RoleAssistant, Content: "no source named"}}, nil
}

// benchRun runs the course tasks on one track into a real results folder
// and returns the wall time, the summed test time and the episode count.
func benchRun(b *testing.B, word string, seeds []int, parallel int) (wall, test time.Duration, n int) {
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	w, err := record.Create(b.TempDir()+"/run", record.Run{ID: "bench", Tasks: []record.TaskRef{{Name: "leap_year"}}, Tracks: []string{"oracle"}, Seeds: []int{1}})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	cfg := Config{RunID: "bench", Model: newFakeInstantModel(b, all), Tracks: Tracks(), RunSettings: record.RunSettings{MaxTurns: 5, Tries: 2}}
	jobs := PlanVariants(all, []string{word}, []string{""}, []string{""}, seeds)
	start := time.Now()
	err = RunPool(context.Background(), cfg, []Server{{Slots: parallel}}, WriterSink{W: w}, jobs, PoolOptions{Progress: func(ep record.Episode) {
		if !ep.Passed {
			b.Errorf("%s did not pass with the solving fake: exit %s, error %q", ep.Key(), ep.ExitReason, ep.Error)
		}
		test += time.Duration(ep.TestMS) * time.Millisecond
		n++
	}})
	if err != nil {
		b.Fatal(err)
	}
	return time.Since(start), test, n
}

// BenchmarkHarnessOverhead reports the wall time of a workflow run with an
// instant model divided by the time its test subprocesses take themselves
// (target: at most 1.10).
func BenchmarkHarnessOverhead(b *testing.B) {
	var wall, test time.Duration
	for b.Loop() {
		w, t, _ := benchRun(b, "workflow", []int{1}, 1)
		wall += w
		test += t
	}
	b.ReportMetric(float64(wall)/float64(test), "wall/test")
}

// BenchmarkParallelSpeedup reports episodes per second with --parallel 1
// and 2, and their ratio (target: at least 1.7 on two cores). It also
// reports the mean test time per episode at each setting: when that grows
// with parallelism, the test subprocesses themselves compete for the CPUs.
func BenchmarkParallelSpeedup(b *testing.B) {
	seeds := []int{1, 2, 3, 4}
	var one, two, test1, test2 time.Duration
	var n1, n2 int
	for b.Loop() {
		w, t, n := benchRun(b, "workflow", seeds, 1)
		one, test1, n1 = one+w, test1+t, n1+n
		w, t, n = benchRun(b, "workflow", seeds, 2)
		two, test2, n2 = two+w, test2+t, n2+n
	}
	b.ReportMetric(float64(test1.Milliseconds())/float64(n1), "test-ms/ep-p1")
	b.ReportMetric(float64(test2.Milliseconds())/float64(n2), "test-ms/ep-p2")
	eps1 := float64(n1) / one.Seconds()
	eps2 := float64(n2) / two.Seconds()
	b.ReportMetric(eps1, "eps/p1")
	b.ReportMetric(eps2, "eps/p2")
	b.ReportMetric(eps2/eps1, "speedup")
}
