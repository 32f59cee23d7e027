package model

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
)

// maxTail is how much of a reply body a tail keeps: the end of the stream.
const maxTail = 64 << 10

// tail keeps the last bytes of one call's reply body, so that an error the
// Ollama client returns as bare text can be told apart: a line of the body
// that is not JSON (an unreadable reply) or the message of an in-stream
// {"error": …} (a server failure).
type tail struct {
	mu  sync.Mutex
	buf []byte
}

type tailKey struct{}

// withTail returns ctx carrying a fresh tail.
func withTail(ctx context.Context) (context.Context, *tail) {
	t := &tail{}
	return context.WithValue(ctx, tailKey{}, t), t
}

func (t *tail) write(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - maxTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
}

// rawLine reports whether text is, verbatim, one line of the body read so far.
func (t *tail) rawLine(text string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for line := range bytes.Lines(t.buf) {
		if string(bytes.TrimRight(line, "\r\n")) == text {
			return true
		}
	}
	return false
}

// tailTransport copies response bodies into the request context's tail, if any.
type tailTransport struct{ base http.RoundTripper }

func (tt tailTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := tt.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if t, ok := r.Context().Value(tailKey{}).(*tail); ok {
		resp.Body = tailBody{ReadCloser: resp.Body, t: t}
	}
	return resp, nil
}

type tailBody struct {
	io.ReadCloser
	t *tail
}

func (b tailBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.t.write(p[:n])
	return n, err
}
