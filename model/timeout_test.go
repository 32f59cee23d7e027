package model_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"bench/model"
	"bench/model/modeltest"
)

// TestOllamaStalledStreamIsATimeout: a stream whose final chunk never comes
// before the attempt's deadline is a timeout, not a dropped connection, and
// is retried once at most.
func TestOllamaStalledStreamIsATimeout(t *testing.T) {
	cases := map[string]modeltest.Reply{
		"stalls after text":  modeltest.Text("thinking about the bug").Stall(),
		"stalls before text": modeltest.Text("").Stall(),
		"drips":              modeltest.Text(strings.Repeat("word ", 40)).Drip(30 * time.Millisecond),
	}
	for name, rep := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits out its timeout twice
			srv := modeltest.NewOllama(t, modeltest.Always(rep))
			cfg := srv.Config()
			cfg.Timeout = 300 * time.Millisecond
			resp, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
			if !errors.Is(err, model.ErrTimeout) || errors.Is(err, model.ErrServer) || errors.Is(err, model.ErrUnreachable) {
				t.Fatalf("err = %v, want ErrTimeout only", err)
			}
			for _, want := range []string{"timed out after 300ms", "--timeout"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q lacks %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "dropped") {
				t.Errorf("message %q calls a timeout a dropped connection", err)
			}
			var e *model.Error
			if !errors.As(err, &e) || e.Retries != 1 || e.Timeout != cfg.Timeout {
				t.Errorf("error = %+v, want 1 retry and the limit", e)
			}
			if n := len(srv.Requests()); n != 2 || resp.Retries != 1 {
				t.Errorf("%d requests, response retries %d: a timed-out call is retried once", n, resp.Retries)
			}
		})
	}
}

// TestTimeoutThenSuccessCountsTheRetry: the one retry after a timeout may succeed.
func TestTimeoutThenSuccessCountsTheRetry(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("slow").Stall(), modeltest.Text("ok"))
	cfg := srv.Config()
	cfg.Timeout = 100 * time.Millisecond
	resp, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	if err != nil || resp.Message.Content != "ok" || resp.Retries != 1 {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

// TestOpenAITimeoutRetriedOnce: the OpenAI client retries a timeout once too.
func TestOpenAITimeoutRetriedOnce(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Always(modeltest.Hang()))
	cfg := srv.Config()
	cfg.Timeout = 300 * time.Millisecond
	_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	var e *model.Error
	if !errors.As(err, &e) || e.Kind != model.ErrTimeout || e.Retries != 1 || len(srv.Requests()) != 2 {
		t.Fatalf("err = %v (%+v) after %d requests", err, e, len(srv.Requests()))
	}
}

// TestStalledStreamCancelledIsInterrupted: the caller's cancel during a
// stall is an interruption, not a timeout.
func TestStalledStreamCancelledIsInterrupted(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("partial").Stall())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := newClient(t, srv.Config()).Chat(ctx, userRequest("hi"))
	if !errors.Is(err, model.ErrInterrupted) || len(srv.Requests()) != 1 {
		t.Fatalf("err = %v after %d requests", err, len(srv.Requests()))
	}
}
