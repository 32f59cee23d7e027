package model

import (
	"errors"

	"bench/record"
)

// Kind names the failure of a model call as the results format records it:
// record.ErrorUnreachable, ErrorTimeout, ErrorServer and ErrorBadReply for
// the infrastructure's failures (record.InfraError), record.ErrorModel for
// a request the server refused (unknown model, no tool support, no
// thinking, a bad option). It returns "" for nil, for an interrupted call
// (the caller's own cancel) and for any error that is not a model call's
// failure (*Error): the caller names those, record.ErrorHarness for bench's own.
func Kind(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return ""
	}
	switch e.Kind {
	case ErrUnreachable:
		return record.ErrorUnreachable
	case ErrTimeout:
		return record.ErrorTimeout
	case ErrServer:
		return record.ErrorServer
	case ErrBadReply:
		return record.ErrorBadReply
	case ErrInterrupted:
		return ""
	}
	return record.ErrorModel
}
