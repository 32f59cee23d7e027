package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ollama/ollama/api"
)

// wire encodes the chat requests of one Ollama client. A conversation
// resends its whole history with every call; converting it afresh each
// time (every earlier tool call's arguments decoded into Ollama's ordered
// map) and encoding it whole made a call cost more with every turn. wire
// keeps each message's encoding, and the tools', the first time they are
// sent, found again by the identity of the message's strings (not their
// contents, which would be read again on every call): a call encodes only
// what is new, and its body is the kept encodings side by side, built once
// for all its attempts and written out without being copied together.
type wire struct {
	mu    sync.Mutex
	msgs  map[msgKey]kept
	tools map[string][]byte
	size  int // bytes held, at most wireMaxBytes
	hist  *history[[]byte]

	// The backend's wire forms of a message and of the tools, which
	// json.Marshal encodes.
	msgForm   func(Message) any
	toolsForm func([]Tool) (any, error)
}

// wireMaxBytes bounds what a wire keeps: past it, it starts afresh.
const wireMaxBytes = 64 << 20

// kept is a message's encoding and the message, whose strings it holds
// so that their memory, which the key names, is never reused for others.
type kept struct {
	enc []byte
	msg Message
}

// strID names a string by where its bytes are and how many: two strings
// with one strID are one string, as long as it is kept alive.
type strID struct {
	p *byte
	n int
}

func idOf(s string) strID { return strID{unsafe.StringData(s), len(s)} }

// msgKey identifies a message by the identity of its strings; a message
// with more tool calls than keyCalls is encoded every time.
type msgKey struct {
	role, content, toolName, toolCallID strID
	calls                               [keyCalls]callKey
	n                                   int
}

type callKey struct{ id, name, args strID }

const keyCalls = 4

// newWire is the wire of Ollama's /api/chat.
func newWire() *wire {
	return wireOf(func(m Message) any { return ollamaMessage(m) }, func(ts []Tool) (any, error) { return ollamaTools(ts) })
}

// wireOf is an empty wire of a backend's forms.
func wireOf(msgForm func(Message) any, toolsForm func([]Tool) (any, error)) *wire {
	return &wire{msgs: map[msgKey]kept{}, tools: map[string][]byte{}, hist: newHistory[[]byte](), msgForm: msgForm, toolsForm: toolsForm}
}

// chatBody is the JSON body of /api/chat for req on model name: the form
// json.Marshal gives api.ChatRequest{Model, Messages, Stream: true, Tools,
// Options, Think} (a test holds it to that), built from kept encodings.
func (w *wire) chatBody(name string, req Request, think *api.ThinkValue) (*body, error) {
	b, err := w.messages(name, req.Messages)
	if err != nil {
		return nil, err
	}
	var tail bytes.Buffer
	tail.WriteString(`],"stream":true`)
	if len(req.Tools) > 0 {
		enc, err := w.toolList(req.Tools)
		if err != nil {
			return nil, err
		}
		tail.WriteString(`,"tools":`)
		tail.Write(enc)
	}
	tail.WriteString(`,"options":`)
	if err := appendJSON(&tail, ollamaOptions(req.Options)); err != nil {
		return nil, err
	}
	if think != nil {
		tail.WriteString(`,"think":`)
		if err := appendJSON(&tail, think); err != nil {
			return nil, err
		}
	}
	tail.WriteByte('}')
	b.tail = tail.Bytes()
	return b, nil
}

var comma = []byte{','}

// messages is the start of a body for model name up to its messages:
// the model, and the encodings of msgs (those of the start their
// conversation's last request sent from the history, the others from
// message). The caller sets the tail, which closes the list.
func (w *wire) messages(name string, msgs []Message) (*body, error) {
	var head bytes.Buffer
	head.WriteString(`{"model":`)
	if err := appendJSON(&head, name); err != nil {
		return nil, err
	}
	head.WriteString(`,"messages":[`)
	b := &body{head: head.Bytes(), known: w.hist.recall(msgs)}
	b.more = make([][]byte, 0, len(msgs)-len(b.known))
	for _, m := range msgs[len(b.known):] {
		enc, err := w.message(m)
		if err != nil {
			return nil, err
		}
		b.more = append(b.more, enc)
	}
	w.hist.extend(msgs, b.known, b.more)
	return b, nil
}

// message is m's encoding in the backend's form, kept.
func (w *wire) message(m Message) ([]byte, error) {
	k, keyed := keyOf(m)
	if keyed {
		w.mu.Lock()
		e, ok := w.msgs[k]
		w.mu.Unlock()
		if ok {
			return e.enc, nil
		}
	}
	enc, err := json.Marshal(w.msgForm(m))
	if err != nil {
		return nil, fmt.Errorf("encoding a %s message: %w", m.Role, err)
	}
	if keyed {
		w.keep(func() { w.msgs[k] = kept{enc: enc, msg: m} }, len(enc))
	}
	return enc, nil
}

// toolList is the encoding of tools in the backend's form, kept (found by
// their contents: they are few and small).
func (w *wire) toolList(tools []Tool) ([]byte, error) {
	var kb strings.Builder
	for _, t := range tools {
		kb.WriteString(t.Name)
		kb.WriteByte(0)
		kb.WriteString(t.Description)
		kb.WriteByte(0)
		kb.Write(t.Parameters)
		kb.WriteByte(0)
	}
	k := kb.String()
	w.mu.Lock()
	enc, ok := w.tools[k]
	w.mu.Unlock()
	if ok {
		return enc, nil
	}
	at, err := w.toolsForm(tools)
	if err != nil {
		return nil, err
	}
	if enc, err = json.Marshal(at); err != nil {
		return nil, fmt.Errorf("encoding the tools: %w", err)
	}
	w.keep(func() { w.tools[k] = enc }, len(enc)+len(k))
	return enc, nil
}

// keep runs store under the lock, counting n bytes; past wireMaxBytes it
// forgets everything first.
func (w *wire) keep(store func(), n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.size+n > wireMaxBytes {
		clear(w.msgs)
		clear(w.tools)
		w.hist.forget()
		w.size = 0
	}
	store()
	w.size += n
}

// keyOf is m's key; false for a message with more tool calls than a key holds.
func keyOf(m Message) (msgKey, bool) {
	if len(m.ToolCalls) > keyCalls {
		return msgKey{}, false
	}
	k := msgKey{role: idOf(m.Role), content: idOf(m.Content), toolName: idOf(m.ToolName), toolCallID: idOf(m.ToolCallID), n: len(m.ToolCalls)}
	for i, tc := range m.ToolCalls {
		k.calls[i] = callKey{idOf(tc.ID), idOf(tc.Name), idOf(tc.Arguments)}
	}
	return k, true
}

// appendJSON appends v's encoding, as json.Marshal gives it, to buf.
func appendJSON(buf *bytes.Buffer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}
