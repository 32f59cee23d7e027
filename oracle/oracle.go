// Package oracle is the oracle track: it makes no model call and overlays
// the task's solution/ on the workspace, each file recorded as a write.
// Graded like every other track, it proves the fixtures and the grading
// (a run of it passes every task) and needs no model server.
package oracle

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"bench/tasks"

	"bench/record"
	"bench/scratch"
	"bench/track"
)

// Oracle is the oracle track (named "oracle" on the command line): it
// overlays the task's solution/ on the workspace and records one write
// event a file.
func Oracle(ctx context.Context, env *track.Env) track.Outcome {
	if err := scratch.Overlay(env.Task, env.Dir, tasks.Solution); err != nil {
		return track.Outcome{Exit: record.ExitError, Err: err}
	}
	err := fs.WalkDir(env.Task.FS, tasks.Solution, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(name, "solution/")
		env.Rec.Record(record.Event{Kind: record.EventWrite, Path: rel, Bytes: int(info.Size()), Reason: "oracle overlay"})
		return nil
	})
	if err != nil {
		return track.Outcome{Exit: record.ExitError, Err: fmt.Errorf("listing the solution of %s: %w", env.Task.Name, err)}
	}
	return track.Outcome{Exit: record.ExitDone}
}
