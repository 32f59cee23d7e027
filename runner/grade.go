package runner

import (
	"context"

	"bench/grade"
	"bench/tasks"
)

// gradeEpisode grades an episode's workspace with its run's settings.
func gradeEpisode(ctx context.Context, cfg Config, t tasks.Task, dir string) (grade.Result, error) {
	return grade.GradeWith(ctx, t, dir, grade.Options{WorkspaceLimit: cfg.WorkspaceLimit})
}
