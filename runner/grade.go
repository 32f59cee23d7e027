package runner

import (
	"context"

	"bench/grade"
	"bench/tasks"
)

// GradeResult is the verdict on a workspace: see grade.Result.
type GradeResult = grade.Result

// Grade grades the workspace dir of task t: see grade.Grade.
func Grade(ctx context.Context, t tasks.Task, dir string) (GradeResult, error) {
	return grade.Grade(ctx, t, dir)
}
