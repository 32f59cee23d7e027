package model

import (
	"errors"

	"bench/record"
)

// Kind names the failure of a model call as the results format records it
// (its error_kind): the Answers table's kind, through KindOf. It returns ""
// for nil, for an interrupted call (the caller's own cancel) and for any
// error that is not a model call's failure (*Error): the caller names
// those (record.ErrorFault, record.ErrorHarness).
func Kind(err error) record.ErrorKind {
	var e *Error
	if !errors.As(err, &e) {
		return ""
	}
	k, ok := KindOf(e.Kind)
	if !ok {
		return ""
	}
	return k.Record
}
