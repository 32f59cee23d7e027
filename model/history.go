package model

import (
	"sync"
	"unsafe"
)

// history remembers, per conversation, the messages of its last request
// and a value the client derived from each (an encoding, a running token
// count). An agent resends its whole conversation with every call; found
// message by message in a map, the history cost a hash of every earlier
// message on every call, so a call cost more with every turn. A history
// finds the conversation once, by its first reply, then walks the messages
// in order, comparing the identity of their strings with those it kept:
// a few words per message, none of their bytes read.
//
// The values of a conversation only grow: a call that resends the last
// request and adds to it appends to the kept lists, which earlier callers
// read only up to their own length. A history is safe for concurrent use.
type history[V any] struct {
	mu      sync.Mutex
	threads map[msgKey]*thread[V]
	held    int // bytes kept alive (weight), at most historyMaxBytes
}

// thread is one conversation's last request: its messages' keys and values.
type thread[V any] struct {
	keys   []msgKey
	vals   []V
	weight int // of its messages
}

// threadAt is the message that names a conversation: its first reply,
// after the system prompt and the task, is the model's and its own.
const threadAt = 2

// historyMaxBytes bounds what a history keeps alive, the messages' strings
// and its own keys (weight): past it, it starts afresh, so that finished
// conversations are not held for ever.
const historyMaxBytes = 64 << 20

// weight is what keeping m costs: its strings, which its key keeps alive,
// and the key.
func weight(m Message) int {
	n := int(unsafe.Sizeof(msgKey{})) + len(m.Role) + len(m.Content) + len(m.ToolName) + len(m.ToolCallID)
	for _, tc := range m.ToolCalls {
		n += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
	}
	return n
}

// newHistory is an empty history.
func newHistory[V any]() *history[V] { return &history[V]{threads: map[msgKey]*thread[V]{}} }

// recall returns the values kept for the longest start of msgs that the
// last request of their conversation began with: none for a new
// conversation, or one too short to name.
func (h *history[V]) recall(msgs []Message) []V {
	k, ok := threadKey(msgs)
	if !ok {
		return nil
	}
	h.mu.Lock()
	t := h.threads[k]
	var keys []msgKey
	var vals []V
	if t != nil {
		keys, vals = t.keys, t.vals
	}
	h.mu.Unlock()
	n := 0
	for n < len(keys) && n < len(msgs) && keys[n].is(msgs[n]) {
		n++
	}
	return vals[:n:n]
}

// extend keeps msgs as their conversation's last request: known is what
// recall gave for them, more the values of the messages after it. A
// message that no key can name ends what is kept.
func (h *history[V]) extend(msgs []Message, known, more []V) {
	k, ok := threadKey(msgs)
	if !ok {
		return
	}
	keys, added := make([]msgKey, 0, len(msgs)-len(known)), 0
	for _, m := range msgs[len(known):] {
		mk, ok := keyOf(m)
		if !ok {
			break
		}
		keys, added = append(keys, mk), added+weight(m)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.threads[k]
	if t == nil || len(t.vals) != len(known) || (len(known) > 0 && &t.vals[0] != &known[0]) {
		if t != nil { // another request came between: start again from known, copied
			h.held -= t.weight
		}
		t = &thread[V]{vals: append(known[:0:0], known...)}
		for _, m := range msgs[:len(known)] {
			mk, _ := keyOf(m)
			t.keys, t.weight = append(t.keys, mk), t.weight+weight(m)
		}
		h.held += t.weight
	}
	if h.held+added > historyMaxBytes {
		clear(h.threads)
		h.held = t.weight
	}
	t.keys, t.vals, t.weight = append(t.keys, keys...), append(t.vals, more[:len(keys)]...), t.weight+added
	h.threads[k] = t
	h.held += added
}

// forget drops everything kept.
func (h *history[V]) forget() {
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.threads)
	h.held = 0
}

// threadKey is the key of the message that names msgs' conversation.
func threadKey(msgs []Message) (msgKey, bool) {
	if len(msgs) <= threadAt {
		return msgKey{}, false
	}
	return keyOf(msgs[threadAt])
}

// is reports whether m is the message k was taken of: the same strings,
// by identity.
func (k *msgKey) is(m Message) bool {
	if k.content != idOf(m.Content) || k.n != len(m.ToolCalls) || k.role != idOf(m.Role) ||
		k.toolName != idOf(m.ToolName) || k.toolCallID != idOf(m.ToolCallID) {
		return false
	}
	for i, tc := range m.ToolCalls {
		if k.calls[i] != (callKey{idOf(tc.ID), idOf(tc.Name), idOf(tc.Arguments)}) {
			return false
		}
	}
	return true
}
