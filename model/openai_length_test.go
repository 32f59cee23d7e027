package model_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"bench/model"
)

// TestOpenAISendsContentLength: the body goes with its length, never
// chunked, since mlx_lm.server answers a chunked request 411 Length
// Required; this fake answers as it does, and checks the length is the body's.
func TestOpenAISendsContentLength(t *testing.T) {
	type seen struct {
		length int64
		te     []string
		n      int
	}
	got := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.ContentLength, r.TransferEncoding, len(b)}
		if r.ContentLength <= 0 || len(r.TransferEncoding) > 0 {
			http.Error(w, "Length Required", http.StatusLengthRequired)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, completion(`{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}`, ""))
	}))
	defer srv.Close()
	c := newClient(t, model.Config{Backend: model.BackendOpenAI, Host: srv.URL, Model: "m", MaxRetries: -1, RetryWindow: -1})
	req := userRequest("fix")
	req.Tools = fileTools
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	s := <-got
	if s.length <= 0 || s.length != int64(s.n) || len(s.te) > 0 {
		t.Errorf("Content-Length %d for a body of %d bytes, Transfer-Encoding %q", s.length, s.n, s.te)
	}
}
