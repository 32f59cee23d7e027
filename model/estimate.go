package model

import (
	"sync"
	"unicode/utf8"

	"bench/model/tokens"
)

// Per-message and per-tool overheads of the estimate, in tokens: the role
// markers and separators a chat template adds (the figures OpenAI documents
// for its chat format), so that an empty message still costs something.
const (
	estPerMessage = 3
	estPerTool    = 8
	estReply      = 3 // the assistant's reply header
)

// Estimator gives the offline token estimate of requests and replies with
// one tiktoken encoding. It is deterministic: the same request always counts
// the same. It is safe for concurrent use.
//
// A conversation resends its whole history with every call, so the
// estimator remembers the counts of the texts it has seen: each call
// counts only what is new. A text seen before is found by the identity of
// its string, without reading it again; a new string by its contents. The
// running count of a conversation's last request is kept per message (a
// history), so that a call resending it adds only its new messages.
type Estimator struct {
	c         *tokens.Counter
	mu        sync.Mutex
	memo      map[string]int
	seen      map[strID]counted // the same counts, by the identity of the strings
	memoBytes int
	hist      *history[sum] // the running count after each message, with estReply
}

// counted is a text's count and the string, held so that its memory, which
// the key names, is never reused for another text.
type counted struct {
	s string
	n int
}

// memoMaxBytes bounds the memo: past it, the memo starts afresh.
const memoMaxBytes = 32 << 20

// EstExactBytes is the longest text the estimate counts token by token,
// the default reply cap (4 × 4096 tokens × 16 bytes): the offline count
// runs at about a megabyte a second, and cannot be cancelled. A longer
// text (a reply under a raised --max-reply-bytes, a huge tool result) is
// counted on its first EstExactBytes and the count extrapolated by its
// length; Usage.EstExtrapolated says so.
const EstExactBytes = 256 << 10

// NewEstimator returns an estimator for encoding ("" = cl100k_base).
func NewEstimator(encoding string) (*Estimator, error) {
	c, err := tokens.New(encoding)
	if err != nil {
		return nil, err
	}
	return &Estimator{c: c, memo: map[string]int{}, seen: map[strID]counted{}, hist: newHistory[sum]()}, nil
}

// Encoding is the name of the estimator's encoding.
func (e *Estimator) Encoding() string { return e.c.Name() }

// count is the token count of s, remembered; extrapolated (and so
// reported) for a text longer than EstExactBytes.
func (e *Estimator) count(s string) (int, bool) {
	if len(s) > EstExactBytes {
		return extrapolate(e.c, s), true
	}
	id := idOf(s)
	e.mu.Lock()
	c, ok := e.seen[id]
	n := c.n
	if !ok {
		if n, ok = e.memo[s]; ok {
			e.remember(id, s, n)
		}
	}
	e.mu.Unlock()
	if ok {
		return n, false
	}
	n = e.c.Count(s)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.memo[s] = n
	e.remember(id, s, n)
	return n, false
}

// remember keeps n as the count of string s, whose identity is id, under
// e.mu; past memoMaxBytes the memo starts afresh.
func (e *Estimator) remember(id strID, s string, n int) {
	if e.memoBytes+len(s) > memoMaxBytes {
		clear(e.memo)
		clear(e.seen)
		e.memoBytes = 0
		e.memo[s] = n
	}
	e.seen[id] = counted{s, n}
	e.memoBytes += len(s)
}

// extrapolate counts the first EstExactBytes of s (cut on a character
// boundary) and scales the count by s's length.
func extrapolate(c *tokens.Counter, s string) int {
	cut := EstExactBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut == 0 {
		cut = EstExactBytes
	}
	n := c.Count(s[:cut])
	return int(int64(n) * int64(len(s)) / int64(cut))
}

// sum adds counts and whether any was extrapolated.
type sum struct {
	n     int
	extra bool
}

func (t *sum) add(n int, extra bool) {
	t.n += n
	t.extra = t.extra || extra
}

// Request estimates the prompt of req: every message (role, content, tool
// calls, tool name) and every tool's name, description and schema.
func (e *Estimator) Request(req Request) int { return e.request(req).n }

func (e *Estimator) request(req Request) sum {
	known := e.hist.recall(req.Messages)
	t := sum{n: estReply}
	if len(known) > 0 {
		t = known[len(known)-1]
	}
	more := make([]sum, 0, len(req.Messages)-len(known))
	for _, m := range req.Messages[len(known):] {
		t.add(estPerMessage, false)
		t.add(e.count(m.Role))
		e.message(&t, m)
		if m.ToolName != "" {
			t.add(e.count(m.ToolName))
		}
		more = append(more, t)
	}
	e.hist.extend(req.Messages, known, more)
	for _, tl := range req.Tools {
		t.add(estPerTool, false)
		t.add(e.count(tl.Name))
		t.add(e.count(tl.Description))
		t.add(e.count(string(tl.Parameters)))
	}
	return t
}

// Reply estimates an assistant message: its text and its tool calls.
func (e *Estimator) Reply(m Message) int {
	var t sum
	e.message(&t, m)
	return t.n
}

func (e *Estimator) message(t *sum, m Message) {
	t.add(e.count(m.Content))
	for _, tc := range m.ToolCalls {
		t.add(e.count(tc.Name))
		t.add(e.count(tc.Arguments))
	}
}

// fill sets the estimate fields of resp.Usage for req.
func (e *Estimator) fill(req Request, resp *Response) {
	p := e.request(req)
	var r sum
	e.message(&r, resp.Message)
	resp.Usage.EstPromptTokens, resp.Usage.EstCompletionTokens = p.n, r.n
	resp.Usage.EstExtrapolated = p.extra || r.extra
}
