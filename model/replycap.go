package model

import (
	"context"
	"io"
	"net/http"

	"bench/record"
)

// ReplyCap is the most bytes of one reply (its text, thinking and tool
// calls' names and arguments) bench reads for a request with options o:
// cfg.MaxReplyBytes when set, else record.ReplyCapTokensFactor × the reply's
// token cap (o.MaxReplyTokens, or the context window when there is none)
// × record.BytesPerToken: 256 KiB for the default --max-tokens 4096. A reply
// past it is the model's failure (ErrReplyTooLarge).
func (cfg Config) ReplyCap(o Options) int64 {
	if cfg.MaxReplyBytes > 0 {
		return cfg.MaxReplyBytes
	}
	tokens := o.MaxReplyTokens
	if tokens <= 0 {
		tokens = o.NumCtx
	}
	if tokens <= 0 {
		tokens = record.DefaultNumCtx
	}
	return int64(record.ReplyCapTokensFactor) * int64(tokens) * record.BytesPerToken
}

// wireCap is the most bytes of a reply's HTTP body bench reads for a reply
// cap of limit: a streamed reply spends about a hundred bytes of JSON on
// each token, and escapes make a text longer.
func wireCap(limit int64) int64 { return 8*limit + 1<<20 }

type capKey struct{}

// withCap returns ctx asking capTransport to stop a response body after n bytes.
func withCap(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, capKey{}, n)
}

// capTransport cuts a response body at the cap its request's context
// carries (withCap): past it, a read fails with errTooLarge.
type capTransport struct{ base http.RoundTripper }

func (ct capTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := ct.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if n, ok := r.Context().Value(capKey{}).(int64); ok {
		resp.Body = &capBody{ReadCloser: resp.Body, left: n}
	}
	return resp, nil
}

// capBody is a body that may yield left more bytes.
type capBody struct {
	io.ReadCloser
	left int64
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left+1] // one byte more shows that the body goes on
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n, err = int(b.left), errTooLarge
	}
	b.left -= int64(n)
	return n, err
}
