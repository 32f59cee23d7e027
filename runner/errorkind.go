package runner

import (
	"errors"

	"bench/model"
	"bench/record"
)

// errorKind names whose failure err is, as one of the record.Error* kinds:
// the infrastructure's (unreachable, timeout, server, bad reply), the
// model's request being refused (model) or bench's own (harness). It is the
// one place that maps model errors to kinds, made to be swapped for the
// model package's own mapping.
//
// A model that is no longer on the server counts as a server failure: the
// episode says nothing about the model, and --resume redoes it.
func errorKind(err error) string {
	switch {
	case err == nil:
		return record.ErrorHarness
	case errors.Is(err, model.ErrUnreachable):
		return record.ErrorUnreachable
	case errors.Is(err, model.ErrTimeout):
		return record.ErrorTimeout
	case errors.Is(err, model.ErrServer), errors.Is(err, model.ErrModelNotFound):
		return record.ErrorServer
	case errors.Is(err, model.ErrBadReply):
		return record.ErrorBadReply
	case errors.Is(err, model.ErrRequest), errors.Is(err, model.ErrNoToolSupport):
		return record.ErrorModel
	}
	return record.ErrorHarness
}

// errorRetries is the number of retries a failed model call made before it
// gave up, when err is one.
func errorRetries(err error) int {
	var me *model.Error
	if errors.As(err, &me) {
		return me.Retries
	}
	return 0
}
