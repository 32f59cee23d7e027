package cause_test

import (
	"os/exec"
	"testing"

	"bench/cause"
	"bench/internal/testsupport/fixture"
)

// BenchmarkDerive derives the causes of a real trajectory (parse_date's
// partial fix through the workflow, run once before timing), alone and
// after reading it from its run folder, as bench show would: what a view
// pays per episode.
func BenchmarkDerive(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 is not on PATH")
	}
	task := fixture.CourseTask(b, "parse_date")
	data := run(b, task, []string{"workflow"}, nil, fileReply("dateparse.py", overlay(b, task, "partial/dateparse.py")))
	in, _, err := cause.Read(data, data.Episodes[0], taskOf(b, task))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("derive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if len(cause.Derive(in)) == 0 {
				b.Fatal("no cause")
			}
		}
		b.ReportMetric(float64(len(in.Events)), "events")
	})
	b.Run("read+derive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in, _, err := cause.Read(data, data.Episodes[0], in.Task)
			if err != nil || len(cause.Derive(in)) == 0 {
				b.Fatal(err)
			}
		}
	})
}
