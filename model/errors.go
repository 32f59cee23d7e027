package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// Error kinds, testable with errors.Is on any error a client returns.
var (
	ErrModelNotFound = errors.New("model not found")
	ErrNoToolSupport = errors.New("model does not support tools")
	ErrNoThinking    = errors.New("model cannot think")
	ErrUnreachable   = errors.New("model server unreachable")
	ErrServer        = errors.New("model server error")
	ErrTimeout       = errors.New("model call timed out")
	ErrInterrupted   = errors.New("interrupted")
	ErrBadReply      = errors.New("unreadable reply from model server")
	ErrRequest       = errors.New("model server rejected the request")
	ErrAuth          = errors.New("model server refused the credentials")
	// ErrRequestTooLarge is a server's refusal of a conversation longer
	// than it accepts (413, or its context window).
	ErrRequestTooLarge = errors.New("conversation too large for the model server")
	// ErrReplyTooLarge is a reply that ran past the size cap (Config.MaxReplyBytes).
	ErrReplyTooLarge = errors.New("reply too large")
	// ErrModelMismatch is servers of one pool that serve a model differently (SameModel).
	ErrModelMismatch = errors.New("servers disagree on the model")
)

// Error is a classified failure of one model call.
type Error struct {
	Kind    error  // one of the Err* kinds
	Backend string // "ollama" or "openai"
	Host    string
	Model   string
	Status  int           // HTTP status, when there was one
	Retries int           // failed attempts that were retried before giving up
	Timeout time.Duration // for ErrTimeout: the per-call limit
	Limit   int64         // for ErrReplyTooLarge: the cap in bytes
	Detail  string        // the server's or the transport's own words
	Err     error         // the underlying error
	// RetryAfter is the wait the server asked for (Retry-After), when it did.
	RetryAfter    time.Duration
	hasRetryAfter bool
}

// Error says what went wrong, on which host, and, where there is one, the
// command that fixes it (Fix): "head (detail): fix".
func (e *Error) Error() string {
	if e.Kind == ErrInterrupted {
		return "model call interrupted"
	}
	head := e.head()
	if e.Retries > 0 {
		head += fmt.Sprintf(" (gave up after %d retries)", e.Retries)
	}
	hint := e.Fix()
	switch {
	case hint != "" && e.Detail != "":
		return head + " (" + e.Detail + "): " + hint
	case hint != "":
		return head + ": " + hint
	case e.Detail != "":
		return head + ": " + e.Detail
	}
	return head
}

// head names the failure and the host.
func (e *Error) head() string {
	server := "the Ollama server"
	if e.Backend == BackendOpenAI {
		server = "the OpenAI-compatible server"
	}
	switch e.Kind {
	case ErrModelNotFound:
		return fmt.Sprintf("model %q not found on %s", e.Model, e.Host)
	case ErrNoToolSupport:
		return fmt.Sprintf("model %q on %s does not support tool calling", e.Model, e.Host)
	case ErrNoThinking:
		return fmt.Sprintf("model %q cannot think", e.Model)
	case ErrUnreachable:
		if strings.HasPrefix(e.Detail, droppedPrefix) {
			return fmt.Sprintf("%s at %s dropped the connection", server, e.Host)
		}
		return fmt.Sprintf("cannot reach %s at %s (%s)", server, e.Host, hostPort(e.Host))
	case ErrServer:
		if e.Status == 429 {
			return fmt.Sprintf("model server %s is limiting bench's rate", e.Host)
		}
		return fmt.Sprintf("model server %s failed", e.Host)
	case ErrTimeout:
		if e.Status == 408 {
			return fmt.Sprintf("model server %s timed out waiting for the request", e.Host)
		}
		return fmt.Sprintf("model call to %s timed out after %s", e.Host, e.Timeout)
	case ErrBadReply:
		return fmt.Sprintf("model server %s sent a reply bench cannot read", e.Host)
	case ErrRequest:
		return fmt.Sprintf("model server %s rejected the request", e.Host)
	case ErrAuth:
		return fmt.Sprintf("model server %s refused bench's credentials", e.Host)
	case ErrRequestTooLarge:
		return fmt.Sprintf("model server %s refused the conversation as larger than it accepts", e.Host)
	case ErrReplyTooLarge:
		return fmt.Sprintf("the reply of model %q from %s ran past %d bytes (--max-reply-bytes)", e.Model, e.Host, e.Limit)
	}
	return fmt.Sprintf("model call to %s failed", e.Host)
}

// Is reports whether target is e's kind; ErrInterrupted also matches context.Canceled.
func (e *Error) Is(target error) bool {
	return target == e.Kind || (e.Kind == ErrInterrupted && target == context.Canceled)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// edge holds what the classifier needs to name the failure.
type edge struct {
	backend, host, model string
	timeout              time.Duration
	maxReply             int64 // the reply cap, for ErrReplyTooLarge
}

// classify turns a transport, status or decoding error into an *Error.
// parent is the caller's context; a deadline of the per-attempt context alone
// is a timeout. status is the HTTP status (0 if none) and detail the server's message.
func (g edge) classify(parent context.Context, err error, status int, detail string) *Error {
	e := &Error{Backend: g.backend, Host: g.host, Model: g.model, Status: status, Err: err, Detail: detail}
	if e.Detail == "" && err != nil {
		e.Detail = err.Error()
	}
	switch {
	case parent.Err() != nil && errors.Is(parent.Err(), context.Canceled):
		e.Kind = ErrInterrupted
	case errors.Is(err, errTooLarge):
		e.Kind, e.Limit, e.Detail = ErrReplyTooLarge, g.maxReply, ""
	case isDial(err):
		e.Kind = ErrUnreachable
	case errors.Is(err, context.DeadlineExceeded) || isNetTimeout(err):
		e.Kind, e.Timeout, e.Detail = ErrTimeout, g.timeout, ""
		if parent.Err() != nil {
			e.Detail = "the caller's deadline passed"
		}
	case status >= 400:
		e.Kind = statusKind(status, detail)
		switch {
		case e.Kind == ErrNoToolSupport || e.Kind == ErrNoThinking:
			e.Detail = "" // the head says it in bench's words; Err keeps the server's
		case e.Kind == ErrModelNotFound || refusalWords(status, detail):
		default:
			e.Detail = fmt.Sprintf("HTTP %d: %s", status, detail)
		}
	case isDropped(err):
		e.Kind = ErrUnreachable
		e.Detail = droppedPrefix + e.Detail
	default:
		e.Kind = ErrBadReply
	}
	return e
}

// refusalWords reports whether an HTTP answer was told by the server's
// words rather than its status: its detail is then shown as it is.
func refusalWords(status int, detail string) bool {
	d := strings.ToLower(detail)
	return badOption(status, d) || contextExceeded(status, d)
}

// droppedPrefix starts the detail of a connection lost after it was made.
const droppedPrefix = "the connection dropped: "

// isDial reports a failure to connect at all (refused, no route, DNS, dial timeout).
func isDial(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// isNetTimeout reports a transport timeout other than dialling.
func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() && !isDial(err)
}

// errTooLarge marks a reply stopped at its size cap.
var errTooLarge = errors.New("the reply ran past its size cap")

// withRetryAfter records the wait the answer's headers ask for, if any.
func (e *Error) withRetryAfter(h http.Header) *Error {
	e.RetryAfter, e.hasRetryAfter = retryAfter(h, time.Now())
	return e
}

// errDropped marks a stream that ended without its final chunk.
var errDropped = errors.New("the reply stream ended before its final chunk")

// isDropped reports a connection lost after it was made.
func isDropped(err error) bool {
	if err == nil {
		return false
	}
	return errors.Is(err, errDropped) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "connection reset") || strings.HasSuffix(err.Error(), ": EOF")
}
