package record_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"bench/record"
)

// Example shows a run being written, killed half way through a line,
// resumed and read.
func Example() {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("bench-example-%d", time.Now().UnixNano()))
	defer os.RemoveAll(dir)

	w, _ := record.Create(dir, record.Run{ID: "demo", Model: "qwen3:8b", Seeds: []int{1}, Tracks: []string{"workflow"},
		Tasks: []record.TaskRef{{Name: "leap_year", Checksum: "sha256:00"}}})
	tr, _ := w.Trajectory("leap_year", "workflow", 1, 0)
	tr.Record(record.Event{Kind: record.EventEnd, Exit: record.ExitDone})
	_ = tr.Close()
	_ = w.Append(record.Episode{Task: "leap_year", Track: "workflow", Seed: 1, Passed: true, ExitReason: record.ExitDone})
	_ = w.Close()

	// A kill in the middle of the next line.
	f, _ := os.OpenFile(filepath.Join(dir, record.EpisodesFile), os.O_WRONLY|os.O_APPEND, 0)
	_, _ = f.WriteString(`{"format":1,"task":"slugify","tra`)
	_ = f.Close()

	w, data, _ := record.Resume(dir)
	fmt.Println(len(data.Episodes), "finished;", len(data.Warnings), "warnings")
	fmt.Println(data.Episodes[0].Key())
	_ = w.Close()
	// Output:
	// 1 finished; 2 warnings
	// leap_year/workflow/seed-1
}
