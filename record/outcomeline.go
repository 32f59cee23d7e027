package record

import (
	"encoding/json"
	"unicode/utf8"
)

// outcomeLine is what an Outcome is made of, as decodeOutcomeLine reads it
// from an episode line: names as their text, lists as their JSON text
// (for the interner to decode once per distinct list).
type outcomeLine struct {
	task, track, model, exitReason, errorKind, trajectorySHA256 []byte
	toolCalls, steps                                            []byte // a JSON array of strings, "null" or nothing
	format, seed, repeat, testsPassed, testsTotal, turns        int
	promptTokens, completionTokens                              int
	estPromptTokens, estCompletionTokens                        int
	retries, cutReplies                                         int
	passed, gradingTimedOut                                     bool
	size                                                        int // of the line, in bytes
}

// decodeOutcomeLine decodes an episode line into l. A plain line — valid
// JSON, an object of Episode's fields, each holding a value of its type,
// names without escapes — is read field by field, its text kept as slices
// of b; any other line is decoded by encoding/json into an Episode, so
// that the two accept and refuse the same lines, with the same errors.
// Reading plain lines is several times faster than encoding/json (see
// BenchmarkDecodeLine), which a report over a million episodes needs.
func decodeOutcomeLine(b []byte, l *outcomeLine) error {
	if !json.Valid(b) || !l.readPlain(b) {
		var ep Episode
		if err := json.Unmarshal(b, &ep); err != nil {
			return err
		}
		*l = lineOf(&ep)
	}
	l.size = len(b)
	return nil
}

// lineOf is the outcomeLine of an episode decoded by encoding/json.
func lineOf(ep *Episode) outcomeLine {
	list := func(xs []string) []byte {
		b, _ := json.Marshal(xs) // nil is "null", an empty list "[]": the interner keeps them apart
		return b
	}
	return outcomeLine{
		task: []byte(ep.Task), track: []byte(ep.Track), model: []byte(ep.Model),
		exitReason: []byte(ep.ExitReason), errorKind: []byte(ep.ErrorKind), trajectorySHA256: []byte(ep.TrajectorySHA256),
		toolCalls: list(ep.ToolCalls), steps: list(ep.Steps),
		format: ep.Format, seed: ep.Seed, repeat: ep.Repeat, testsPassed: ep.TestsPassed, testsTotal: ep.TestsTotal, turns: ep.Turns,
		promptTokens: ep.PromptTokens, completionTokens: ep.CompletionTokens,
		estPromptTokens: ep.EstPromptTokens, estCompletionTokens: ep.EstCompletionTokens,
		retries: ep.Retries, cutReplies: ep.CutReplies, passed: ep.Passed, gradingTimedOut: ep.GradingTimedOut,
	}
}

// readPlain reads the valid JSON b into l and reports whether it is a plain
// line; when it is not, l is left half read.
func (l *outcomeLine) readPlain(b []byte) bool {
	*l = outcomeLine{}
	s := scanner{b: b}
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	for {
		key := s.value()
		s.consume(':')
		if !l.set(key, s.value()) {
			return false
		}
		if !s.consume(',') {
			return true // valid JSON: the object ends here
		}
	}
}

// set stores the value v (JSON text) of the field key (a quoted name) and
// reports whether both are plain: a field of Episode, spelled as its tag,
// and a value of its type. Fields an Outcome does not hold are checked too.
func (l *outcomeLine) set(key, v []byte) bool {
	switch string(key) {
	case `"task"`:
		return text(v, &l.task)
	case `"track"`:
		return text(v, &l.track)
	case `"model"`:
		return text(v, &l.model)
	case `"exit_reason"`:
		return text(v, &l.exitReason)
	case `"error_kind"`:
		return text(v, &l.errorKind)
	case `"trajectory_sha256"`:
		return text(v, &l.trajectorySHA256)
	case `"run"`, `"host"`, `"posture"`, `"error"`:
		return text(v, nil)
	case `"tool_calls"`:
		return list(v, &l.toolCalls)
	case `"steps"`:
		return list(v, &l.steps)
	case `"failed_tests"`:
		return list(v, nil)
	case `"format"`:
		return integer(v, &l.format)
	case `"seed"`:
		return integer(v, &l.seed)
	case `"repeat"`:
		return integer(v, &l.repeat)
	case `"tests_passed"`:
		return integer(v, &l.testsPassed)
	case `"tests_total"`:
		return integer(v, &l.testsTotal)
	case `"turns"`:
		return integer(v, &l.turns)
	case `"prompt_tokens"`:
		return integer(v, &l.promptTokens)
	case `"completion_tokens"`:
		return integer(v, &l.completionTokens)
	case `"est_prompt_tokens"`:
		return integer(v, &l.estPromptTokens)
	case `"est_completion_tokens"`:
		return integer(v, &l.estCompletionTokens)
	case `"retries"`:
		return integer(v, &l.retries)
	case `"cut_replies"`:
		return integer(v, &l.cutReplies)
	case `"model_calls"`, `"wall_ms"`, `"model_ms"`, `"test_ms"`:
		return integer(v, nil)
	case `"passed"`:
		return boolean(v, &l.passed)
	case `"grading_timed_out"`:
		return boolean(v, &l.gradingTimedOut)
	case `"tests_tampered"`:
		return boolean(v, nil)
	case `"sandbox"`:
		return sandbox(v)
	}
	return false // another spelling (encoding/json matches names in any case) or a field Episode lacks
}

// plainFields are the JSON names set reads: every field of Episode (a test
// checks it).
var plainFields = []string{
	"task", "track", "model", "exit_reason", "error_kind", "trajectory_sha256", "run", "host", "posture", "error",
	"tool_calls", "steps", "failed_tests",
	"format", "seed", "repeat", "tests_passed", "tests_total", "turns", "prompt_tokens", "completion_tokens",
	"est_prompt_tokens", "est_completion_tokens", "retries", "cut_replies", "model_calls", "wall_ms", "model_ms", "test_ms",
	"passed", "grading_timed_out", "tests_tampered", "sandbox",
}

// text stores the text of a plain string v (no escapes, valid UTF-8, which
// encoding/json would decode to the same bytes) in *dst, unless dst is nil.
func text(v []byte, dst *[]byte) bool {
	if len(v) < 2 || v[0] != '"' {
		return false // null or another type: left to encoding/json
	}
	t := v[1 : len(v)-1]
	for _, c := range t {
		if c == '\\' {
			return false
		}
	}
	return utf8.Valid(t) && set(dst, t)
}

// set stores t in *dst unless dst is nil, and returns true.
func set(dst *[]byte, t []byte) bool {
	if dst != nil {
		*dst = t
	}
	return true
}

// list stores v in *dst (unless dst is nil) when it is null or an array of
// strings, whose escapes the interner decodes with encoding/json.
func list(v []byte, dst *[]byte) bool {
	if string(v) != "null" {
		s := scanner{b: v}
		if !s.consume('[') {
			return false
		}
		for !s.consume(']') {
			if e := s.value(); e[0] != '"' {
				return false
			}
			s.consume(',')
		}
	}
	return set(dst, v)
}

// integer stores the integer v in *dst (unless dst is nil) when it is one
// of at most 18 digits, which encoding/json reads as strconv.ParseInt does.
func integer(v []byte, dst *int) bool {
	digits := v
	if len(v) > 0 && v[0] == '-' {
		digits = v[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false // a fraction, an exponent, null, another type
		}
		n = n*10 + int(c-'0')
	}
	if len(digits) < len(v) {
		n = -n
	}
	if dst != nil {
		*dst = n
	}
	return true
}

// boolean stores true or false in *dst (unless dst is nil).
func boolean(v []byte, dst *bool) bool {
	switch string(v) {
	case "true", "false":
		if dst != nil {
			*dst = v[0] == 't'
		}
		return true
	}
	return false
}

// sandbox checks that v is null or an object of Sandbox's fields, plain strings.
func sandbox(v []byte) bool {
	if string(v) == "null" {
		return true
	}
	s := scanner{b: v}
	if !s.consume('{') {
		return false
	}
	for !s.consume('}') {
		switch string(s.value()) {
		case `"fs"`, `"net"`, `"pid"`:
		default:
			return false
		}
		s.consume(':')
		if !text(s.value(), nil) {
			return false
		}
		s.consume(',')
	}
	return true
}

// scanner walks JSON text that json.Valid accepted.
type scanner struct {
	b []byte
	i int
}

// space skips white space.
func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// consume skips white space and then c, if it is next, reporting whether it was.
func (s *scanner) consume(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// value skips white space and returns the next value's text, moving past it.
func (s *scanner) value() []byte {
	s.space()
	start, depth := s.i, 0
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; c {
		case '"':
			s.i = s.stringEnd()
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return s.b[start:s.i]
			}
			depth--
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return s.b[start:s.i]
			}
		}
		if depth == 0 && (s.b[start] == '"' || s.b[start] == '{' || s.b[start] == '[') {
			s.i++
			return s.b[start:s.i]
		}
	}
	return s.b[start:s.i]
}

// stringEnd returns the index of the quote that closes the string whose
// opening quote is at s.i.
func (s *scanner) stringEnd() int {
	for i := s.i + 1; i < len(s.b); i++ {
		switch s.b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(s.b)
}
