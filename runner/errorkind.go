package runner

import (
	"cmp"
	"errors"

	"bench/model"
	"bench/record"
)

// errorKind names whose failure err is, as one of the record.Error* kinds
// (model.Kind), or bench's own (harness) when it is no model error. A model
// that is no longer on the server mid-run counts as the server's failure:
// the episode says nothing about the model, and --resume redoes it.
func errorKind(err error) string {
	if errors.Is(err, model.ErrModelNotFound) {
		return record.ErrorServer
	}
	return cmp.Or(model.Kind(err), record.ErrorHarness)
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
