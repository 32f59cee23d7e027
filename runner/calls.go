package runner

import (
	"context"

	"bench/model"
)

// callCounter passes a job's model calls on and reports each one as it is
// sent, so that a log can say how many calls a running episode has sent,
// the one it is waiting for included.
type callCounter struct {
	model.Chatter
	job  Job
	sent func(Job)
}

// Chat reports the call, then makes it.
func (c callCounter) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	c.sent(c.job)
	return c.Chatter.Chat(ctx, req)
}

// countCalls is cfg with its clients reporting each call of job j to
// sent; cfg itself when sent is nil.
func countCalls(cfg Config, j Job, sent func(Job)) Config {
	if sent == nil {
		return cfg
	}
	if cfg.Model != nil {
		cfg.Model = callCounter{Chatter: cfg.Model, job: j, sent: sent}
	}
	if cfg.WorkflowClient != nil {
		cfg.WorkflowClient = callCounter{Chatter: cfg.WorkflowClient, job: j, sent: sent}
	}
	return cfg
}
