package runner

import (
	"context"

	"bench/model"
)

// callCounter passes a job's model calls on and reports each one made, so
// that a log can say how many calls a running episode has made so far.
type callCounter struct {
	model.Chatter
	job   Job
	after func(Job)
}

// Chat calls the model, then reports the call.
func (c callCounter) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	resp, err := c.Chatter.Chat(ctx, req)
	c.after(c.job)
	return resp, err
}

// countCalls is cfg with its clients reporting each call of job j to
// after; cfg itself when after is nil.
func countCalls(cfg Config, j Job, after func(Job)) Config {
	if after == nil {
		return cfg
	}
	if cfg.Model != nil {
		cfg.Model = callCounter{Chatter: cfg.Model, job: j, after: after}
	}
	if cfg.WorkflowModel != nil {
		cfg.WorkflowModel = callCounter{Chatter: cfg.WorkflowModel, job: j, after: after}
	}
	return cfg
}
