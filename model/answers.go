package model

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"bench/record"
)

// Meaning is what one answer of a model server means for the episode that
// got it.
type Meaning int

// The three meanings of an answer.
const (
	// Lost: the infrastructure failed. The call is retried; if it still
	// fails, the episode is lost: counted in no rate, redone by --resume,
	// and a run that loses several in a row stops.
	Lost Meaning = iota + 1
	// Stops: the setup is wrong (credentials, the model's name, an
	// option). The episode is lost and the run stops at once, before more
	// episodes are spent, saying what to fix.
	Stops
	// Stands: the model's own doing, or a limit its episode ran into. The
	// episode stands as not passed and --resume keeps it.
	Stands
)

// Answer is one row of the table of what a server's answer means: what
// came back (an HTTP status, the server's words, a transport failure),
// the kind of *Error it becomes, and how it is retried. The episode's
// error_kind and the meaning follow from the kind (KindOf).
type Answer struct {
	What  string // the answer, as docs/RESULTS.md names it
	Kind  error  // the Err* kind it is classified as
	Retry string // how the call is retried; "" = not retried
	// match reports whether an HTTP answer of status with the server's
	// words detail (lower-cased) is this row's; nil for the transport's
	// rows, which classify tells by the error itself.
	match func(status int, detail string) bool
}

// Retries of the table, in the words docs/RESULTS.md uses.
const (
	retryServer  = "up to 3 times, with backoff, or after the wait its Retry-After asks for (at most 60 s)"
	retryTimeout = "once"
	retryDown    = "for --retry-window (60 s; 5 s in a pool)"
)

// Answers is the one table of what each server answer means, for both
// backends, in the order it is matched (the first row that matches an
// HTTP answer wins) and documented (docs/RESULTS.md, "What each server
// answer means", which a test keeps in step with it).
var Answers = []Answer{
	{What: `the server's words "does not support tools" (400)`, Kind: ErrNoToolSupport, match: words("does not support tools")},
	{What: `the server's words "does not support thinking" (400)`, Kind: ErrNoThinking, match: words("does not support thinking")},
	{What: `the server's words "option … must be …" (Ollama's 400 or 500 for a bad option)`, Kind: ErrRequest, match: badOption},
	{What: "the server's words on a context length the conversation exceeds (400)", Kind: ErrRequestTooLarge, match: contextExceeded},
	{What: "HTTP 401 Unauthorized, 403 Forbidden", Kind: ErrAuth, match: statuses(401, 403)},
	{What: "HTTP 404 Not Found (the model is not on the server)", Kind: ErrModelNotFound, match: statuses(404)},
	{What: "HTTP 408 Request Timeout", Kind: ErrTimeout, Retry: retryServer, match: statuses(408)},
	{What: "HTTP 413 Content Too Large (the conversation outgrew what the server accepts)", Kind: ErrRequestTooLarge, match: statuses(413)},
	{What: "HTTP 429 Too Many Requests", Kind: ErrServer, Retry: retryServer, match: statuses(429)},
	{What: "any other HTTP 4xx", Kind: ErrRequest, match: between(400, 499)},
	{What: "HTTP 5xx", Kind: ErrServer, Retry: retryServer, match: between(500, 599)},
	{What: "an error the server writes into its stream", Kind: ErrServer, Retry: retryServer},
	{What: "connection refused, no route to the host, an unknown host name", Kind: ErrUnreachable, Retry: retryDown},
	{What: "a connection reset or closed before the reply's end", Kind: ErrUnreachable, Retry: retryDown},
	{What: "no whole reply within --timeout (a server that hangs, stalls or sends its reply a byte at a time)", Kind: ErrTimeout, Retry: retryTimeout},
	{What: "a reply that is not the protocol (not JSON, no choices)", Kind: ErrBadReply},
	{What: "a reply larger than --max-reply-bytes", Kind: ErrReplyTooLarge},
}

// KindInfo is what a kind of failure means: the error_kind an episode
// ended by it records and its Meaning.
type KindInfo struct {
	Record  record.ErrorKind
	Meaning Meaning
}

// kinds gives every Err* kind a call can fail with its KindInfo.
var kinds = map[error]KindInfo{
	ErrUnreachable:     {record.ErrorUnreachable, Lost},
	ErrTimeout:         {record.ErrorCallTimeout, Lost},
	ErrServer:          {record.ErrorServer, Lost},
	ErrBadReply:        {record.ErrorBadReply, Lost},
	ErrAuth:            {record.ErrorRefused, Stops},
	ErrModelNotFound:   {record.ErrorRefused, Stops},
	ErrNoToolSupport:   {record.ErrorRefused, Stops},
	ErrNoThinking:      {record.ErrorRefused, Stops},
	ErrRequest:         {record.ErrorRefused, Stops},
	ErrRequestTooLarge: {record.ErrorRequestTooLarge, Stands},
	ErrReplyTooLarge:   {record.ErrorReplyTooLarge, Stands},
}

// StandingKind is the kind of failure (one of the Err* kinds) that ends an
// episode with error_kind kind and lets it stand, the model's own failure
// or a limit it ran into; nil when no such failure records that kind.
func StandingKind(kind record.ErrorKind) error {
	for err, info := range kinds {
		if info.Record == kind && info.Meaning == Stands {
			return err
		}
	}
	return nil
}

// KindOf is what the kind of failure (one of the Err* kinds) means; ok is
// false for ErrInterrupted and any other error, which are no server answer.
func KindOf(kind error) (KindInfo, bool) {
	k, ok := kinds[kind]
	return k, ok
}

// statusKind is the kind of an HTTP answer of status (>= 400) with the
// server's words detail: the first row of Answers that matches.
func statusKind(status int, detail string) error {
	d := strings.ToLower(detail)
	for _, a := range Answers {
		if a.match != nil && a.match(status, d) {
			return a.Kind
		}
	}
	return ErrRequest
}

func statuses(codes ...int) func(int, string) bool {
	return func(status int, _ string) bool {
		for _, c := range codes {
			if status == c {
				return true
			}
		}
		return false
	}
}

func between(lo, hi int) func(int, string) bool {
	return func(status int, _ string) bool { return status >= lo && status <= hi }
}

// words matches an error answer whose text holds w.
func words(w string) func(int, string) bool {
	return func(status int, d string) bool { return status >= 400 && strings.Contains(d, w) }
}

// badOption matches Ollama's refusal of an option of the wrong type, which
// it answers with a 500 that no retry cures.
func badOption(status int, d string) bool {
	return status >= 400 && strings.HasPrefix(d, "option ") && strings.Contains(d, " must be ")
}

// contextExceeded matches the refusals of a prompt longer than the context
// window, as OpenAI ("context_length_exceeded"), vLLM ("maximum context
// length") and llama.cpp's server ("exceeds the available context size")
// word them.
func contextExceeded(status int, d string) bool {
	return status >= 400 && status < 500 &&
		(strings.Contains(d, "context_length_exceeded") || strings.Contains(d, "maximum context length") || strings.Contains(d, "exceeds the available context"))
}

// maxRetryAfter caps the wait a server may ask for with Retry-After.
const maxRetryAfter = 60 * time.Second

// retryAfter reads a Retry-After header (seconds, or an HTTP date) as the
// wait it asks for, at most maxRetryAfter; ok is false when there is none
// or it cannot be read.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		return min(time.Duration(s)*time.Second, maxRetryAfter), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(t.Sub(now), 0), maxRetryAfter), true
}
