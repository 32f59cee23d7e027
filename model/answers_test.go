package model_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// TestAnswersOfEveryStatus drives both clients through every HTTP answer
// of the table: each becomes its kind and meaning, and is retried exactly
// as the table says (a retried answer is tried 1 + 3 times with the fake's
// three retries).
func TestAnswersOfEveryStatus(t *testing.T) {
	cases := []struct {
		status   int
		msg      string
		kind     error
		record   record.ErrorKind
		meaning  model.Meaning
		attempts int
	}{
		{400, "invalid request", model.ErrRequest, record.ErrorRefused, model.Stops, 1},
		{400, "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens", model.ErrRequestTooLarge, record.ErrorRequestTooLarge, model.Stands, 1},
		{400, "the request exceeds the available context size, try increasing it", model.ErrRequestTooLarge, record.ErrorRequestTooLarge, model.Stands, 1},
		{401, "unauthorized", model.ErrAuth, record.ErrorRefused, model.Stops, 1},
		{403, "forbidden", model.ErrAuth, record.ErrorRefused, model.Stops, 1},
		{404, "model 'qwen3:8b' not found", model.ErrModelNotFound, record.ErrorRefused, model.Stops, 1},
		{405, "method not allowed", model.ErrRequest, record.ErrorRefused, model.Stops, 1},
		{408, "request timeout", model.ErrTimeout, record.ErrorCallTimeout, model.Lost, 4},
		{413, "request entity too large", model.ErrRequestTooLarge, record.ErrorRequestTooLarge, model.Stands, 1},
		{422, "unprocessable", model.ErrRequest, record.ErrorRefused, model.Stops, 1},
		{429, "slow down", model.ErrServer, record.ErrorServer, model.Lost, 4},
		{500, "boom", model.ErrServer, record.ErrorServer, model.Lost, 4},
		{502, "bad gateway", model.ErrServer, record.ErrorServer, model.Lost, 4},
		{503, "unavailable", model.ErrServer, record.ErrorServer, model.Lost, 4},
		{504, "gateway timeout", model.ErrServer, record.ErrorServer, model.Lost, 4},
	}
	for _, backend := range []string{model.BackendOllama, model.BackendOpenAI} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%d/%s", backend, c.status, c.msg), func(t *testing.T) {
				srv := fake(t, backend, modeltest.Always(modeltest.StatusText(c.status, c.msg)))
				_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
				if !errors.Is(err, c.kind) || model.Kind(err) != c.record {
					t.Fatalf("err = %v: kind %q; want %v, %q", err, model.Kind(err), c.kind, c.record)
				}
				if n := len(srv.Requests()); n != c.attempts {
					t.Errorf("%d requests, want %d", n, c.attempts)
				}
				if k, ok := model.KindOf(c.kind); !ok || k.Record != c.record || k.Meaning != c.meaning {
					t.Errorf("KindOf(%v) = %+v, %v; want meaning %s", c.kind, k, ok, meaningWords[c.meaning])
				}
			})
		}
	}
}

// TestEveryKindHasAMeaningAndARecord: every kind of the table has its row
// in the kinds, and the lost ones are exactly the record's infrastructure
// kinds.
func TestEveryKindHasAMeaningAndARecord(t *testing.T) {
	for _, a := range model.Answers {
		k, ok := model.KindOf(a.Kind)
		if !ok {
			t.Errorf("%s: kind %v has no meaning", a.What, a.Kind)
			continue
		}
		if lost := k.Meaning != model.Stands; record.InfraError(k.Record) != lost {
			t.Errorf("%s: %q %s, but record.InfraError says %v", a.What, k.Record, meaningWords[k.Meaning], record.InfraError(k.Record))
		}
		if a.Retry != "" && k.Meaning != model.Lost {
			t.Errorf("%s: retried %q, yet it %s: no retry cures it", a.What, a.Retry, meaningWords[k.Meaning])
		}
	}
	if _, ok := model.KindOf(model.ErrInterrupted); ok {
		t.Error("an interrupt has a meaning: it is no server answer")
	}
}

// TestRetryAfterOverridesTheBackoff: the wait a 503 asks for is waited,
// however short the client's own backoff (a one-second Retry-After with a
// millisecond backoff) and however long (a zero Retry-After with an hour's
// backoff retries at once); an unreadable one falls back to the backoff.
// How a date is read is TestRetryAfterReadsSecondsAndDates'.
func TestRetryAfterOverridesTheBackoff(t *testing.T) {
	for _, backend := range []string{model.BackendOllama, model.BackendOpenAI} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			srv := fake(t, backend, modeltest.Status(503).WithHeader("Retry-After", "1"), modeltest.Text("ok"))
			resp, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
			reqs := srv.Requests()
			if err != nil || resp.Retries != 1 || len(reqs) != 2 {
				t.Fatalf("Retry-After 1: err %v, retries %d", err, resp.Retries)
			}
			if gap := reqs[1].Time.Sub(reqs[0].Time); gap < time.Second {
				t.Errorf("Retry-After 1: retried after %v", gap)
			}

			srv = fake(t, backend, modeltest.Status(503).WithHeader("Retry-After", "0"), modeltest.Text("ok"))
			cfg := srv.Config()
			cfg.RetryBase = time.Hour // the backoff alone would wait its cap, 30 s
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			if resp, err := newClient(t, cfg).Chat(ctx, userRequest("hi")); err != nil || resp.Retries != 1 || time.Since(start) > 5*time.Second {
				t.Fatalf("Retry-After 0 with an hour's backoff: err %v, retries %d after %v; want one retry at once", err, resp.Retries, time.Since(start))
			}

			srv = fake(t, backend, modeltest.Status(503).WithHeader("Retry-After", "soon"), modeltest.Text("ok"))
			if _, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi")); err != nil {
				t.Fatalf("an unreadable Retry-After: %v", err)
			}
		})
	}
}

// TestSlowLorisIsATimeout: a body sent a byte at a time past the call's
// limit is a timeout on both backends, never an unreadable reply, and
// says to raise --timeout.
func TestSlowLorisIsATimeout(t *testing.T) {
	for _, backend := range []string{model.BackendOllama, model.BackendOpenAI} {
		srv := fake(t, backend, modeltest.Always(modeltest.Text(strings.Repeat("slow ", 50)).Trickle(5*time.Millisecond)))
		cfg := srv.Config()
		cfg.Timeout = 200 * time.Millisecond
		_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
		if !errors.Is(err, model.ErrTimeout) || !strings.Contains(err.Error(), "--timeout") {
			t.Errorf("%s: err = %v, want a timeout naming --timeout", backend, err)
		}
	}
}

// TestInStreamErrorWords: an error Ollama writes into its stream is
// classified by its words as a status error is.
func TestInStreamErrorWords(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Raw(`{"error":"registry.ollama.ai/library/tiny:latest does not support tools"}`+"\n"))
	_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrNoToolSupport) {
		t.Fatalf("err = %v", err)
	}
}

// TestDefaultReplyCap: a reply past the default cap (256 KiB for a cap of
// 4096 tokens) is the model's failure on both backends, not retried; a
// reply under it is read whole.
func TestDefaultReplyCap(t *testing.T) {
	for _, backend := range []string{model.BackendOllama, model.BackendOpenAI} {
		srv := fake(t, backend, modeltest.Huge(256<<10+1), modeltest.Huge(200<<10))
		cfg := srv.Config()
		cfg.MaxReplyBytes = 0
		req := userRequest("hi")
		req.Options.MaxReplyTokens = 4096
		c := newClient(t, cfg)
		_, err := c.Chat(context.Background(), req)
		if !errors.Is(err, model.ErrReplyTooLarge) || model.Kind(err) != record.ErrorReplyTooLarge || !strings.Contains(err.Error(), "262144 bytes") {
			t.Errorf("%s: err = %v, want the model's reply_too_large at 262144 bytes", backend, err)
		}
		if resp, err := c.Chat(context.Background(), req); err != nil || len(resp.Message.Content) != 200<<10 {
			t.Errorf("%s: a reply under the cap: %v, %d bytes", backend, err, len(resp.Message.Content))
		}
		if n := len(srv.Requests()); n != 2 {
			t.Errorf("%s: %d requests; a reply too large is not retried", backend, n)
		}
	}
}
