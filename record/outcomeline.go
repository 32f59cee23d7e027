package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
)

// outcomeLine is what an Outcome is made of, as decodeOutcomeLine reads it
// from an episode line: names as their text, lists as their JSON text
// (for the interner to decode once per distinct list).
type outcomeLine struct {
	task, track, model, exitReason, errorKind, trajectorySHA256 []byte
	variant                                                     []byte // the episode's variant of the run's dimensions, "" without
	toolCalls, steps                                            []byte // a JSON array of strings, "null" or nothing
	format, seed, repeat, testsPassed, testsTotal, turns        int
	promptTokens, completionTokens                              int
	estPromptTokens, estCompletionTokens                        int
	retries, cutReplies                                         int
	workflowCalls, workflowTokens                               int
	passed, gradingTimedOut                                     bool
	causes                                                      CauseSet // the names of its causes; see CauseSet
	causesRead                                                  bool     // the plain parser has read a "causes"
	size                                                        int      // of the line, in bytes

	verdict   Verdict // the episode's, with its trajectory checked (trajectoryCheck.judge)
	missing   bool    // its trajectory file is missing
	toolCodes []byte  // see Line.ToolCodes
	toolsHash uint64  // see Line.ToolsHash
	cellHash  uint64  // a hash of task, track, model and variant (namesHash)
}

// decodeOutcomeLine decodes an episode line into l. A plain line — an
// object of Episode's fields spelled as their tags, each holding a value
// of its type: strings without escapes, whole numbers, lists of such
// strings — is read field by field by a strict parser of just that, its
// text kept as slices of b. Any other line, valid or not, is decoded by
// encoding/json into an Episode, so that the two accept and refuse the
// same lines, with the same errors. The plain parser reads a line in one
// pass, several times faster than encoding/json (BenchmarkDecodeLine), which a report over a million
// episodes needs.
func decodeOutcomeLine(b []byte, l *outcomeLine) error {
	if !l.readPlain(b) {
		var ep Episode
		if err := json.Unmarshal(b, &ep); err != nil {
			return err
		}
		*l = lineOf(&ep)
	}
	if formatOneCallTimeout(l.format, string(l.errorKind)) {
		l.errorKind = []byte(ErrorCallTimeout)
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
		task: []byte(ep.Task), track: []byte(ep.Track), model: []byte(ep.Model), variant: []byte(ep.Variant),
		exitReason: []byte(ep.ExitReason), errorKind: []byte(ep.ErrorKind), trajectorySHA256: []byte(ep.TrajectorySHA256),
		toolCalls: list(ep.ToolCalls), steps: list(ep.Steps),
		format: ep.Format, seed: ep.Seed, repeat: ep.Repeat, testsPassed: ep.TestsPassed, testsTotal: ep.TestsTotal, turns: ep.Turns,
		promptTokens: ep.PromptTokens, completionTokens: ep.CompletionTokens,
		estPromptTokens: ep.EstPromptTokens, estCompletionTokens: ep.EstCompletionTokens,
		retries: ep.Retries, cutReplies: ep.CutReplies, passed: ep.Passed, gradingTimedOut: ep.GradingTimedOut,
		workflowCalls: ep.WorkflowCalls, workflowTokens: ep.WorkflowTokens, causes: CauseSetOf(ep.Causes, ep.Causes != nil),
	}
}

// readPlain reads b into l and reports whether it is a plain line; when
// it is not, l is left half read.
func (l *outcomeLine) readPlain(b []byte) bool {
	*l = outcomeLine{}
	s := scanner{b: b} // text refuses a string of bad UTF-8, which encoding/json would mend; any other byte past ASCII is outside a string, where JSON has none
	if !s.consume('{') {
		return false
	}
	if !s.consume('}') {
		next := 0 // where in writtenKeys the next key is looked for first
		for {
			f, ok := s.knownKey(&next)
			if !ok {
				var key []byte
				key, ok = s.text()
				ok = ok && s.consume(':')
				f = fieldOf(key)
			}
			if !ok || !l.set(&s, f) {
				return false
			}
			if s.consume('}') {
				break
			}
			if !s.consume(',') {
				return false
			}
		}
	}
	s.space()
	return s.i == len(s.b)
}

// writtenKeys are the keys of a line in the order bench writes them
// (Episode's fields, then "status"), each as its JSON text with the colon
// after it, and writtenFields their fields: a line of bench's is read key
// after key by comparing it with the one expected next, not scanning it
// as any string.
var writtenKeys, writtenFields = func() ([][]byte, []field) {
	var names []string
	for f := range reflect.TypeFor[Episode]().Fields() {
		names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	var keys [][]byte
	var fields []field
	for _, name := range append(names, "status") {
		keys, fields = append(keys, []byte(`"`+name+`":`)), append(fields, fieldOf([]byte(name)))
	}
	return keys, fields
}()

// knownKey reads, when s is at one of writtenKeys at or after *next (those
// before it are keys a line omits, such as an empty model), that key and
// its colon, and moves *next past it; else it reads nothing.
func (s *scanner) knownKey(next *int) (field, bool) {
	for k := *next; k < len(writtenKeys) && k < *next+4; k++ {
		if w := writtenKeys[k]; bytes.HasPrefix(s.b[s.i:], w) {
			s.i += len(w)
			*next = k + 1
			return writtenFields[k], true
		}
	}
	return fieldNone, false
}

// field is a key of an episode line that set reads, as a number.
type field uint8

// The fields set reads; fieldNone is any other key.
const (
	fieldNone field = iota
	fieldTask
	fieldTrack
	fieldModel
	fieldVariant
	fieldExitReason
	fieldErrorKind
	fieldTrajectorySHA256
	fieldSkippedText // run, host, posture, error, status
	fieldToolCalls
	fieldSteps
	fieldSkippedList // failed_tests, files_written
	fieldFormat
	fieldSeed
	fieldRepeat
	fieldTestsPassed
	fieldTestsTotal
	fieldTurns
	fieldPromptTokens
	fieldCompletionTokens
	fieldEstPromptTokens
	fieldEstCompletionTokens
	fieldRetries
	fieldCutReplies
	fieldWorkflowCalls
	fieldWorkflowTokens
	fieldSkippedInteger // model_calls, wall_ms, model_ms, server_ms, test_ms, workflow_est_tokens
	fieldPassed
	fieldGradingTimedOut
	fieldTestsTampered
	fieldSandbox
	fieldCauses
	fieldTamperReasons
)

// fieldOf is the field of the key spelled name, fieldNone for another
// spelling (encoding/json matches names in any case), a field Episode
// lacks or "replay" (an object of objects: encoding/json reads the line).
func fieldOf(name []byte) field {
	switch string(name) { // compared in place, not copied
	case "task":
		return fieldTask
	case "track":
		return fieldTrack
	case "model":
		return fieldModel
	case "variant":
		return fieldVariant
	case "exit_reason":
		return fieldExitReason
	case "error_kind":
		return fieldErrorKind
	case "trajectory_sha256":
		return fieldTrajectorySHA256
	case "run", "host", "posture", "error", "status":
		return fieldSkippedText
	case "tool_calls":
		return fieldToolCalls
	case "steps":
		return fieldSteps
	case "failed_tests", "files_written":
		return fieldSkippedList
	case "format":
		return fieldFormat
	case "seed":
		return fieldSeed
	case "repeat":
		return fieldRepeat
	case "tests_passed":
		return fieldTestsPassed
	case "tests_total":
		return fieldTestsTotal
	case "turns":
		return fieldTurns
	case "prompt_tokens":
		return fieldPromptTokens
	case "completion_tokens":
		return fieldCompletionTokens
	case "est_prompt_tokens":
		return fieldEstPromptTokens
	case "est_completion_tokens":
		return fieldEstCompletionTokens
	case "retries":
		return fieldRetries
	case "cut_replies":
		return fieldCutReplies
	case "workflow_calls":
		return fieldWorkflowCalls
	case "workflow_tokens":
		return fieldWorkflowTokens
	case "model_calls", "wall_ms", "model_ms", "server_ms", "test_ms", "workflow_est_tokens":
		return fieldSkippedInteger
	case "passed":
		return fieldPassed
	case "grading_timed_out":
		return fieldGradingTimedOut
	case "tests_tampered":
		return fieldTestsTampered
	case "sandbox":
		return fieldSandbox
	case "causes":
		return fieldCauses
	case "tamper_reasons":
		return fieldTamperReasons
	}
	return fieldNone
}

// set reads the value of field f from s and reports whether it is plain:
// a value of its type in Episode. Fields an Outcome does not hold are
// read and checked too; fieldNone is refused.
func (l *outcomeLine) set(s *scanner, f field) bool {
	switch f {
	case fieldTask:
		return s.textTo(&l.task)
	case fieldTrack:
		return s.textTo(&l.track)
	case fieldModel:
		return s.textTo(&l.model)
	case fieldVariant:
		return s.textTo(&l.variant)
	case fieldExitReason:
		return s.textTo(&l.exitReason)
	case fieldErrorKind:
		return s.textTo(&l.errorKind)
	case fieldTrajectorySHA256:
		return s.textTo(&l.trajectorySHA256)
	case fieldSkippedText:
		return s.skipText()
	case fieldToolCalls:
		return s.list(&l.toolCalls)
	case fieldSteps:
		return s.list(&l.steps)
	case fieldSkippedList:
		return s.skipList()
	case fieldFormat:
		return s.integer(&l.format)
	case fieldSeed:
		return s.integer(&l.seed)
	case fieldRepeat:
		return s.integer(&l.repeat)
	case fieldTestsPassed:
		return s.integer(&l.testsPassed)
	case fieldTestsTotal:
		return s.integer(&l.testsTotal)
	case fieldTurns:
		return s.integer(&l.turns)
	case fieldPromptTokens:
		return s.integer(&l.promptTokens)
	case fieldCompletionTokens:
		return s.integer(&l.completionTokens)
	case fieldEstPromptTokens:
		return s.integer(&l.estPromptTokens)
	case fieldEstCompletionTokens:
		return s.integer(&l.estCompletionTokens)
	case fieldRetries:
		return s.integer(&l.retries)
	case fieldCutReplies:
		return s.integer(&l.cutReplies)
	case fieldWorkflowCalls:
		return s.integer(&l.workflowCalls)
	case fieldWorkflowTokens:
		return s.integer(&l.workflowTokens)
	case fieldSkippedInteger:
		return s.integer(nil)
	case fieldPassed:
		return s.boolean(&l.passed)
	case fieldGradingTimedOut:
		return s.boolean(&l.gradingTimedOut)
	case fieldTestsTampered:
		return s.boolean(nil)
	case fieldSandbox:
		return s.sandbox()
	case fieldCauses:
		if l.causesRead { // encoding/json decodes a second list into the first's elements
			return false
		}
		l.causesRead = true
		return s.causes(&l.causes)
	case fieldTamperReasons:
		return s.tamperReasons()
	}
	return false
}

// plainFields are the JSON names set knows: every field of Episode (a
// test checks it) and the "status" its lines carry (MarshalJSON); set
// reads all of them but "replay".
var plainFields = []string{
	"task", "track", "model", "variant", "exit_reason", "error_kind", "trajectory_sha256", "run", "host", "posture", "error", "status",
	"tool_calls", "steps", "failed_tests", "tamper_reasons", "causes", "files_written", "replay",
	"format", "seed", "repeat", "tests_passed", "tests_total", "turns", "prompt_tokens", "completion_tokens",
	"est_prompt_tokens", "est_completion_tokens", "retries", "cut_replies", "model_calls", "wall_ms", "model_ms", "server_ms", "test_ms",
	"workflow_calls", "workflow_tokens", "workflow_est_tokens",
	"passed", "grading_timed_out", "tests_tampered", "sandbox",
}

// scanner reads the plain subset of JSON: it reports false for anything
// else, valid JSON or not, for encoding/json to read.
type scanner struct {
	b []byte
	i int
}

// space skips white space.
func (s *scanner) space() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

// isSpace reports whether c is JSON's white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// consume skips white space and then c, if it is next, reporting whether
// it was. The next byte is compared with c first: lines bench writes have
// no white space between their tokens.
func (s *scanner) consume(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	if s.i >= len(s.b) || !isSpace(s.b[s.i]) {
		return false
	}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// literal skips white space and then word, if it is next, reporting
// whether it was.
func (s *scanner) literal(word string) bool {
	s.space()
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// text reads a string of valid UTF-8 without escapes or control
// characters and returns its text. It skips eight bytes at a time while
// each is printable ASCII other than a quote or a backslash (most of a
// line is such text).
func (s *scanner) text() ([]byte, bool) {
	if !s.consume('"') {
		return nil, false
	}
	start, i := s.i, s.i
	for i+8 <= len(s.b) && !special(binary.LittleEndian.Uint64(s.b[i:])) {
		i += 8
	}
	for i < len(s.b) {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			return s.b[start:i], true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(s.b[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, false // encoding/json replaces bad bytes in strings
			}
			i += size
			continue
		}
		i++
	}
	return nil, false
}

// Eight bytes as one word, for special.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special reports whether one of the eight bytes of x is a quote, a
// backslash, below 0x20 or past ASCII: the classic tests for a byte below
// n and for a zero byte (of x with the byte sought xored out), exact as a
// yes or no.
func special(x uint64) bool {
	zero := func(v uint64) uint64 { return (v - ones) &^ v & highs }
	below := (x - ones*0x20) &^ x & highs
	return x&highs|below|zero(x^ones*'"')|zero(x^ones*'\\') != 0
}

// textTo reads a string (see text) into *dst, unless dst is nil.
func (s *scanner) textTo(dst *[]byte) bool {
	t, ok := s.text()
	if ok && dst != nil {
		*dst = t
	}
	return ok
}

// integer reads a whole number of at most 18 digits (which encoding/json
// reads as strconv.ParseInt does) into *dst, unless dst is nil. A number
// with a fraction or an exponent stops at its '.' or 'e', which the caller
// then refuses.
func (s *scanner) integer(dst *int) bool {
	neg := s.consume('-')
	start := s.i
	n := 0
	for ; s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9'; s.i++ {
		n = n*10 + int(s.b[s.i]-'0')
	}
	digits := s.i - start
	if digits == 0 || digits > 18 || (digits > 1 && s.b[start] == '0') {
		return false
	}
	if neg {
		n = -n
	}
	if dst != nil {
		*dst = n
	}
	return true
}

// boolean reads true or false into *dst, unless dst is nil.
func (s *scanner) boolean(dst *bool) bool {
	v := s.literal("true")
	if !v && !s.literal("false") {
		return false
	}
	if dst != nil {
		*dst = v
	}
	return true
}

// list reads null or a list of strings (see text) and stores its JSON text
// in *dst, unless dst is nil.
func (s *scanner) list(dst *[]byte) bool {
	s.space()
	start := s.i
	if !s.literal("null") {
		if !s.consume('[') {
			return false
		}
		if !s.consume(']') {
			for {
				if _, ok := s.text(); !ok {
					return false
				}
				if s.consume(']') {
					break
				}
				if !s.consume(',') {
					return false
				}
			}
		}
	}
	if dst != nil {
		*dst = s.b[start:s.i]
	}
	return true
}

// sandbox reads null or an object of Sandbox's fields, strings (see text).
func (s *scanner) sandbox() bool {
	if s.literal("null") {
		return true
	}
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "fs", "net", "pid":
			return s.textTo(nil)
		}
		return false
	})
}

// skipText reads a string whose text is not kept: any string encoding/json
// reads without an error, escapes included (as JSON spells them), and
// bytes past ASCII as they are (encoding/json mends bad UTF-8 in a string,
// it does not refuse it). A control character or a bad escape is refused,
// for encoding/json to word the error.
func (s *scanner) skipText() bool {
	if !s.consume('"') {
		return false
	}
	i := s.i
	for {
		for i+8 <= len(s.b) && !special(binary.LittleEndian.Uint64(s.b[i:])) {
			i += 8
		}
		if i >= len(s.b) {
			return false
		}
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c == '\\':
			n := escapeSize(s.b[i:])
			if n == 0 {
				return false
			}
			i += n
		case c < 0x20:
			return false
		default:
			i++
		}
	}
}

// escapeSize is the length of the JSON escape b starts with (at its
// backslash), 0 when it is none.
func escapeSize(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for _, c := range b[2:6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// skipList reads null or a list of strings whose text is not kept (see
// skipText).
func (s *scanner) skipList() bool {
	if s.literal("null") {
		return true
	}
	return s.elements(s.skipText)
}

// elements reads a list whose elements each reads, after its '['.
func (s *scanner) elements(each func() bool) bool {
	if !s.consume('[') {
		return false
	}
	if s.consume(']') {
		return true
	}
	for {
		if !each() {
			return false
		}
		if s.consume(']') {
			return true
		}
		if !s.consume(',') {
			return false
		}
	}
}

// object reads an object whose keys are each spelled as one of the field
// names field knows (it reads the value and reports whether it is one);
// any other key, or a value of another type, is refused.
func (s *scanner) object(field func(key []byte) bool) bool {
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	for {
		key, ok := s.text()
		if !ok || !s.consume(':') || !field(key) {
			return false
		}
		if s.consume('}') {
			return true
		}
		if !s.consume(',') {
			return false
		}
	}
}

// causes reads null or a list of Cause objects into *dst: the bits of
// their names, with CausesRecorded for a list (CauseSetOf). A name is
// kept only when plain (text); the other fields are checked, not kept.
func (s *scanner) causes(dst *CauseSet) bool {
	if s.literal("null") {
		*dst = 0
		return true
	}
	set := CausesRecorded
	ok := s.elements(func() bool {
		var name []byte
		if !s.object(func(key []byte) bool {
			switch string(key) {
			case "name":
				return s.textTo(&name)
			case "evidence", "file":
				return s.skipText()
			case "tests", "lost":
				return s.skipList()
			case "fallback":
				return s.boolean(nil)
			}
			return false
		}) {
			return false
		}
		set |= causeBit(name)
		return true
	})
	if ok {
		*dst = set
	}
	return ok
}

// causeBit is the CauseSet bit of the cause named name, as CauseName.bit.
func causeBit(name []byte) CauseSet {
	for i, v := range CauseVocabulary {
		if string(v.Name) == string(name) {
			return 1 << i
		}
	}
	return CauseOther
}

// tamperReasons reads null or a list of TamperReason objects, checked,
// not kept.
func (s *scanner) tamperReasons() bool {
	if s.literal("null") {
		return true
	}
	return s.elements(func() bool {
		return s.object(func(key []byte) bool {
			switch string(key) {
			case "code", "detail":
				return s.skipText()
			}
			return false
		})
	})
}
