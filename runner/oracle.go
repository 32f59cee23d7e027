package runner

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"bench/record"
	"bench/scratch"
	"bench/track"
)

// Oracle is the track that makes no model call: it overlays the task's
// solution/ on the workspace. It proves the fixtures and the grading.
func Oracle(ctx context.Context, env *track.Env) track.Outcome {
	if err := scratch.Overlay(env.Task, env.Dir, "solution"); err != nil {
		return track.Outcome{Exit: record.ExitError, Err: err}
	}
	err := fs.WalkDir(env.Task.FS, "solution", func(name string, d fs.DirEntry, err error) error {
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
