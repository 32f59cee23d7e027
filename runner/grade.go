package runner

import (
	"context"

	"bench/grade"
	"bench/tasks"
)

// GradeResult is the verdict on a workspace: see grade.Result.
type GradeResult = grade.Result

// Grade grades the workspace dir of task t with the default settings: see
// grade.Grade.
func Grade(ctx context.Context, t tasks.Task, dir string) (GradeResult, error) {
	return grade.Grade(ctx, t, dir)
}

// gradeEpisode grades an episode's workspace with its run's settings.
func gradeEpisode(ctx context.Context, cfg Config, t tasks.Task, dir string) (GradeResult, error) {
	return grade.GradeWith(ctx, t, dir, grade.Options{WorkspaceLimit: cfg.WorkspaceLimit})
}
