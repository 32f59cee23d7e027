package runner

import (
	"cmp"
	"errors"

	"bench/model"
	"bench/record"
)

// errorKind names whose failure err is, as one of the record.Error* kinds:
// a model call's by the table of server answers (model.Kind), else the
// machine's (a Fault: lost), else bench's own (harness: it stands).
func errorKind(err error) record.ErrorKind {
	if isFault(err) && model.Kind(err) == "" {
		return record.ErrorFault
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
