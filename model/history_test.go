package model

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// bytes is the body in one slice.
func (b *body) bytes() []byte {
	out := make([]byte, 0, b.size())
	for i := range b.pieces() {
		out = append(out, b.piece(i)...)
	}
	return out
}

// conversation is an agent conversation of turns turns whose strings are
// its own (built afresh, so no two conversations share one).
func conversation(id, turns int) []Message {
	msgs := []Message{
		{Role: RoleSystem, Content: "You fix bugs with tools."},
		{Role: RoleUser, Content: "Fix leap_year."},
	}
	for i := range turns {
		msgs = append(msgs,
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: fmt.Sprint("c", i), Name: "read_file", Arguments: fmt.Sprintf(`{"path":"m%d-%d.py"}`, id, i)}}},
			Message{Role: RoleTool, ToolName: "read_file", ToolCallID: fmt.Sprint("c", i), Content: fmt.Sprintf("conversation %d, turn %d: def f(): pass\n", id, i)})
	}
	return msgs
}

// TestHistoryRecallsTheSentStart: a conversation that grows is recalled
// up to what its last request sent; a message replaced in the middle (a
// new string, even of the same text) ends the recall there; a request too
// short to name its conversation recalls nothing.
func TestHistoryRecallsTheSentStart(t *testing.T) {
	h := newHistory[int]()
	msgs := conversation(1, 3)
	send := func(msgs []Message) []int {
		known := h.recall(msgs)
		more := make([]int, 0, len(msgs)-len(known))
		for i := len(known); i < len(msgs); i++ {
			more = append(more, i)
		}
		h.extend(msgs, known, more)
		return known
	}
	if got := send(msgs[:4]); len(got) != 0 {
		t.Fatalf("a new conversation recalled %v", got)
	}
	if got := send(msgs); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("the grown conversation recalled %v, want its first 4", got)
	}
	edited := slices.Clone(msgs)
	edited[5].Content = strings.Clone(msgs[5].Content)
	if got := send(edited); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("a conversation edited at message 5 recalled %v", got)
	}
	if got := send(msgs); len(got) != 5 {
		t.Fatalf("after the edit the history holds the edited request, recalled %v", got)
	}
	if got := h.recall(msgs[:threadAt]); got != nil {
		t.Fatalf("a request of %d messages recalled %v", threadAt, got)
	}
}

// TestHistoryIsBounded: a history counts the weight of what it keeps, and
// past historyMaxBytes starts afresh.
func TestHistoryIsBounded(t *testing.T) {
	h := newHistory[int]()
	first := conversation(1, 2)
	h.extend(first, nil, make([]int, len(first)))
	want := 0
	for _, m := range first {
		want += weight(m)
	}
	if h.held != want {
		t.Fatalf("the history counts %d bytes, its messages weigh %d", h.held, want)
	}
	h.held = historyMaxBytes
	msgs := conversation(2, 2)
	h.extend(msgs, nil, make([]int, len(msgs)))
	if len(h.threads) != 1 || h.recall(first) != nil || len(h.recall(msgs)) != len(msgs) {
		t.Fatalf("the history holds %d conversations; want only the new one", len(h.threads))
	}
}

// TestEstimateOfConversationsAsFresh: an estimator that serves many
// growing conversations at once, each call recalling its start, counts
// every request as a fresh estimator does.
func TestEstimateOfConversationsAsFresh(t *testing.T) {
	e, err := NewEstimator("")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for id := range 6 {
		msgs := conversation(id%3, 6) // conversations 0 and 3 start alike, in strings of their own
		wg.Go(func() {
			for n := threadAt + 1; n <= len(msgs); n++ {
				fresh, err := NewEstimator("")
				if err != nil {
					t.Error(err)
					return
				}
				req := Request{Messages: msgs[:n]}
				if got, want := e.Request(req), fresh.Request(req); got != want {
					t.Errorf("conversation %d at %d messages: %d tokens, fresh %d", id, n, got, want)
				}
			}
		})
	}
	wg.Wait()
}

// TestWireBodyFromHistory: the body of a request whose start the history
// recalls, all of it or up to an edited message, is the request, and the
// history recalls what the last request of the conversation sent.
func TestWireBodyFromHistory(t *testing.T) {
	w := newWire()
	msgs := conversation(1, 4)
	edited := slices.Clone(msgs)
	edited[4].Content = "an edited result"
	requests := [][]Message{msgs[:3], msgs[:5], msgs, edited, msgs, msgs}
	for i, sent := range requests {
		req := Request{Messages: sent, Tools: agentTools(), Options: Options{Seed: 7, NumCtx: 8192}}
		b, err := w.chatBody("m", req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := b.bytes(), referenceBody(t, "m", req, nil); !reflect.DeepEqual(decoded(t, got), decoded(t, want)) {
			t.Fatalf("request %d:\n got %s\nwant %s", i, got, want)
		}
		if got := len(w.hist.recall(sent)); got != len(sent) {
			t.Fatalf("after request %d the history recalls %d of its %d messages", i, got, len(sent))
		}
	}
}

// TestBodyReadsWhole: a body read in small pieces, written out, or read
// again for a retried request is the same bytes, and its length is theirs.
func TestBodyReadsWhole(t *testing.T) {
	for _, b := range []*body{
		{head: []byte(`{"m":[`), tail: []byte(`]}`)},
		{head: []byte(`{"m":[`), known: [][]byte{[]byte(`1`)}, tail: []byte(`]}`)},
		{head: []byte(`{"m":[`), known: [][]byte{[]byte(`1`), []byte(`"two"`)}, more: [][]byte{[]byte(`3`)}, tail: []byte(`]}`)},
		{head: []byte(`{"m":[`), more: [][]byte{[]byte(`1`), {}, []byte(`3`)}, tail: []byte(`]}`)},
	} {
		want := b.bytes()
		r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:9/", nil)
		b.setOn(r)
		if r.ContentLength != int64(len(want)) {
			t.Errorf("length %d, body %d bytes", r.ContentLength, len(want))
		}
		if err := iotest.TestReader(r.Body, want); err != nil {
			t.Errorf("%s: %v", want, err)
		}
		again, _ := r.GetBody()
		var out bytes.Buffer
		if _, err := io.Copy(&out, again); err != nil || !bytes.Equal(out.Bytes(), want) {
			t.Errorf("written out: %s (%v), want %s", out.Bytes(), err, want)
		}
	}
}
