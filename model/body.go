package model

import (
	"io"
	"net/http"
)

// body is a chat request's JSON as pieces sent one after the other, never
// copied together: a long conversation is megabytes, sent on every call.
// The messages' encodings are the wire's own (those of the conversation's
// start shared with its history, not copied), with a comma put between
// each two as the body is read. Reading never changes a body, so every
// attempt of a call sends the same one.
type body struct {
	head, tail []byte
	known      [][]byte // the encodings of the start the history kept
	more       [][]byte // the encodings of the messages after it
}

// pieces is the number of pieces the body reads as: the head, each
// message and the comma before all but the first, and the tail.
func (b *body) pieces() int {
	n := len(b.known) + len(b.more)
	return 2 + max(2*n-1, 0)
}

// piece is the body's piece i.
func (b *body) piece(i int) []byte {
	switch last := b.pieces() - 1; {
	case i == 0:
		return b.head
	case i == last:
		return b.tail
	case i%2 == 0:
		return comma
	}
	if m := (i - 1) / 2; m < len(b.known) {
		return b.known[m]
	}
	return b.more[(i-1)/2-len(b.known)]
}

// size is the body's length in bytes.
func (b *body) size() int64 {
	n := 0
	for i := range b.pieces() {
		n += len(b.piece(i))
	}
	return int64(n)
}

// setOn makes b r's body, sent with its length (mlx_lm.server answers a
// chunked body 411), readable again for a retried request.
func (b *body) setOn(r *http.Request) {
	r.GetBody = func() (io.ReadCloser, error) { return &bodyReader{b: b}, nil }
	r.Body, _ = r.GetBody()
	r.ContentLength = b.size()
}

// bodyReader reads a body from its start.
type bodyReader struct {
	b   *body
	i   int // the piece being read
	off int // the bytes of it read
}

func (r *bodyReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.i < r.b.pieces() {
		c := copy(p[n:], r.b.piece(r.i)[r.off:])
		n, r.off = n+c, r.off+c
		if r.off == len(r.b.piece(r.i)) {
			r.i, r.off = r.i+1, 0
		}
	}
	if n == 0 && r.i == r.b.pieces() {
		return 0, io.EOF
	}
	return n, nil
}

// WriteTo writes what is left of the body to w piece by piece, without
// copying it into a buffer first.
func (r *bodyReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for ; r.i < r.b.pieces(); r.i, r.off = r.i+1, 0 {
		n, err := w.Write(r.b.piece(r.i)[r.off:])
		total += int64(n)
		if err != nil {
			r.off += n
			return total, err
		}
	}
	return total, nil
}

func (r *bodyReader) Close() error { return nil }
