package model_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// TestServerRestartedWithinTheWindow: a server that goes away and comes
// back within the retry window costs retries, not the call.
func TestServerRestartedWithinTheWindow(t *testing.T) {
	for _, backend := range []string{model.BackendOllama, model.BackendOpenAI} {
		t.Run(backend, func(t *testing.T) {
			srv := fake(t, backend, modeltest.Text("back again"))
			srv.Stop()
			time.AfterFunc(300*time.Millisecond, srv.Start)
			cfg := srv.Config()
			cfg.RetryBase = 20 * time.Millisecond
			cfg.RetryWindow = 5 * time.Second
			resp, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != "back again" || resp.Retries < 1 {
				t.Errorf("content %q after %d retries", resp.Message.Content, resp.Retries)
			}
		})
	}
}

// TestServerKilledMidCall: a connection cut mid-reply is the server going
// away: retried within the window, and named unreachable when it stays away.
func TestServerKilledMidCall(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Text("half a reply").Stall())
	time.AfterFunc(100*time.Millisecond, srv.Stop)
	cfg := srv.Config()
	cfg.RetryBase = 20 * time.Millisecond
	cfg.RetryWindow = 300 * time.Millisecond
	_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	if !errors.Is(err, model.ErrUnreachable) || model.Kind(err) != record.ErrorUnreachable {
		t.Fatalf("err = %v (kind %q), want unreachable", err, model.Kind(err))
	}
}

// TestUnreachableGivesUpAfterTheWindow: retried with backoff, for the window only.
func TestUnreachableGivesUpAfterTheWindow(t *testing.T) {
	addr := closedPort(t)
	cfg := model.Config{Host: addr, Model: "m", RetryBase: 10 * time.Millisecond, RetryWindow: 300 * time.Millisecond}
	start := time.Now()
	_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
	took := time.Since(start)
	var e *model.Error
	if !errors.As(err, &e) || e.Kind != model.ErrUnreachable {
		t.Fatalf("err = %v", err)
	}
	if e.Retries < 3 || took < 300*time.Millisecond || took > 2*time.Second {
		t.Errorf("%d retries in %v, want several within about 300ms", e.Retries, took)
	}
}

// TestUnreachableNotRetried: a negative window, or no retries at all, fails at once.
func TestUnreachableNotRetried(t *testing.T) {
	addr := closedPort(t)
	for _, cfg := range []model.Config{
		{Host: addr, Model: "m", RetryWindow: -1},
		{Host: addr, Model: "m", MaxRetries: -1},
	} {
		_, err := newClient(t, cfg).Chat(context.Background(), userRequest("hi"))
		var e *model.Error
		if !errors.As(err, &e) || e.Kind != model.ErrUnreachable || e.Retries != 0 {
			t.Errorf("%+v: err = %v", cfg, err)
		}
	}
}

// TestEveryErrorCarriesRetries: a failure after retries says how many.
func TestEveryErrorCarriesRetries(t *testing.T) {
	srv := modeltest.NewOllama(t, modeltest.Status(503), modeltest.StatusText(400, "invalid option"))
	_, err := newClient(t, srv.Config()).Chat(context.Background(), userRequest("hi"))
	var e *model.Error
	if !errors.As(err, &e) || e.Kind != model.ErrRequest || e.Retries != 1 {
		t.Fatalf("err = %v (%+v), want the 400 after 1 retry", err, e)
	}
}

func TestKind(t *testing.T) {
	cases := []struct {
		err  error
		want record.ErrorKind
	}{
		{nil, ""},
		{errors.New("disk full"), ""},
		{&model.Error{Kind: model.ErrInterrupted}, ""},
		{&model.Error{Kind: model.ErrUnreachable}, record.ErrorUnreachable},
		{&model.Error{Kind: model.ErrTimeout}, record.ErrorCallTimeout},
		{&model.Error{Kind: model.ErrServer}, record.ErrorServer},
		{&model.Error{Kind: model.ErrBadReply}, record.ErrorBadReply},
		{&model.Error{Kind: model.ErrModelNotFound}, record.ErrorRefused},
		{&model.Error{Kind: model.ErrNoToolSupport}, record.ErrorRefused},
		{&model.Error{Kind: model.ErrNoThinking}, record.ErrorRefused},
		{&model.Error{Kind: model.ErrRequest}, record.ErrorRefused},
		{&model.Error{Kind: model.ErrAuth}, record.ErrorRefused},
		{&model.Error{Kind: model.ErrRequestTooLarge}, record.ErrorRequestTooLarge},
		{&model.Error{Kind: model.ErrReplyTooLarge}, record.ErrorReplyTooLarge},
		{fmt.Errorf("turn 3: %w", &model.Error{Kind: model.ErrTimeout}), record.ErrorCallTimeout},
	}
	for _, c := range cases {
		if got := model.Kind(c.err); got != c.want {
			t.Errorf("Kind(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// fake starts the fake server of a backend.
func fake(t *testing.T, backend string, script ...modeltest.Reply) *modeltest.Server {
	if backend == model.BackendOpenAI {
		return modeltest.NewOpenAI(t, script...)
	}
	return modeltest.NewOllama(t, script...)
}
