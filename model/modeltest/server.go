package modeltest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bench/model"
)

// DefaultModel is the model every fake serves unless SetModels says otherwise.
const DefaultModel = "qwen3:8b"

// DefaultDigest is DefaultModel's digest on the fake Ollama.
const DefaultDigest = "sha256:fa3e0a4b4d1c9e2f7b6a5d8c3e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f"

// Model is one model a fake server holds.
type Model struct {
	Name         string
	Digest       string   // the manifest's, as /api/tags reports it
	Capabilities []string // as in Ollama's /api/show, e.g. "completion", "tools"
	// Weights is the digest of the model layer ("sha256:…"), which
	// /api/show names in its modelfile's FROM line as Ollama does; ""
	// leaves the modelfile out, as an older server might.
	Weights  string
	Template string // /api/show's template
	Params   string // /api/show's parameters, e.g. "stop <|eot_id|>"
}

// Server is a fake model server. Its zero value is not usable: use NewOllama or NewOpenAI.
type Server struct {
	URL     string // base address: for Ollama the host, for OpenAI the host (clients add /v1)
	Version string // what /api/version reports
	// Latency delays every answer, the model's and the metadata's, as a
	// distant or loaded server does; set it before the first request.
	Latency time.Duration

	t       testing.TB
	backend string
	handler http.Handler

	mu      sync.Mutex
	srv     *httptest.Server // nil while stopped
	closing chan struct{}    // closed when the current server stops
	closed  bool             // Close was called: Start no longer works

	script   []Reply
	served   int
	requests []Request
	models   []Model
	hits     map[string]int // requests by "METHOD /path"
}

func newServer(t testing.TB, backend string, script []Reply, mux func(*Server) http.Handler) *Server {
	t.Helper()
	s := &Server{
		t:       t,
		backend: backend,
		Version: "0.17.4",
		closing: make(chan struct{}),
		script:  slices.Clone(script),
		hits:    map[string]int{},
		models:  []Model{{Name: DefaultModel, Digest: DefaultDigest, Capabilities: []string{"completion", "tools"}}},
	}
	inner := mux(s)
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		if !s.pause(r.Context(), s.Latency) {
			return
		}
		inner.ServeHTTP(w, r)
	})
	s.srv = httptest.NewServer(s.handler)
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close stops the server for good, releasing handlers that hang or wait.
// Tests need not call it: it runs at cleanup.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.Stop()
}

// Stop shuts the server down as a killed server goes: open connections are
// cut, hanging handlers released, and new connections refused, until Start.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	if srv != nil {
		close(s.closing)
		s.srv = nil
	}
	s.mu.Unlock()
	if srv != nil {
		srv.CloseClientConnections()
		srv.Close()
	}
}

// Start brings a stopped server back on the same address, with its script
// and records as they were. It may be called from any goroutine; a failure
// to listen fails the test.
func (s *Server) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil || s.closed {
		return
	}
	l, err := net.Listen("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		s.t.Errorf("fake %s server: restarting on %s: %v", s.backend, s.URL, err)
		return
	}
	srv := httptest.NewUnstartedServer(s.handler)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	s.srv, s.closing = srv, make(chan struct{})
}

// stopping is closed when the server serving now stops.
func (s *Server) stopping() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// Config is a model.Config pointing at the fake, with the default model,
// fast retries, a short timeout, a one-second window for retrying an
// unreachable server and a reply cap of TestReplyCap, for tests.
func (s *Server) Config() model.Config {
	return model.Config{
		Backend:       s.backend,
		Host:          s.URL,
		Model:         DefaultModel,
		Timeout:       5 * time.Second,
		RetryBase:     time.Millisecond,
		MaxRetries:    3,
		RetryWindow:   time.Second,
		MaxReplyBytes: TestReplyCap,
	}
}

// TestReplyCap is the reply cap of Config's clients: larger than a file
// may hold (workspace.MaxFileBytes), so that a test of what a track does
// with a huge reply reaches the track. The default cap (model.Config's
// ReplyCap) is tested with a Config that leaves it at zero.
const TestReplyCap = 8 << 20

// SetModels replaces the models the server holds.
func (s *Server) SetModels(ms ...Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = slices.Clone(ms)
}

// Push appends replies to the script.
func (s *Server) Push(rs ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, rs...)
}

// Requests returns the chat requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Hits is how many requests the server received for method and path
// ("GET", "/api/tags"), of any endpoint.
func (s *Server) Hits(method, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[method+" "+path]
}

// Remaining is the number of scripted replies not yet served (an Always entry counts once).
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

func (s *Server) model(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if m.Name == name || m.Name == name+":latest" {
			return m, true
		}
	}
	return Model{}, false
}

func (s *Server) modelList() []Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.models)
}

// next records req and returns the reply for it, resolving Func replies.
// ok is false when the script is exhausted.
func (s *Server) next(req Request) (Reply, bool) {
	s.mu.Lock()
	req.N = len(s.requests)
	req.Time = time.Now()
	s.requests = append(s.requests, req)
	if len(s.script) == 0 {
		s.mu.Unlock()
		return Reply{}, false
	}
	r := s.script[0]
	if !r.always {
		s.script = s.script[1:]
	}
	s.served++
	s.mu.Unlock()
	for r.fn != nil {
		always := r.always
		r = r.fn(req)
		r.always = always
	}
	return r, true
}

// wait applies a reply's delay or hang; it reports false when the client left
// or the server is closing.
func (s *Server) wait(ctx context.Context, r Reply) bool {
	closing := s.stopping()
	if r.hang {
		select {
		case <-ctx.Done():
		case <-closing:
		}
		return false
	}
	if r.delay <= 0 {
		return true
	}
	t := time.NewTimer(r.delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-closing:
	}
	return false
}

// pause waits d (none when d is 0); it reports false when the client left
// or the server is closing.
func (s *Server) pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	return s.wait(ctx, Reply{delay: d})
}

// exhausted answers a request beyond the script, and fails the test.
func (s *Server) exhausted(w http.ResponseWriter, n int) {
	msg := fmt.Sprintf("fake %s server: script exhausted (request %d has no scripted reply)", s.backend, n+1)
	s.t.Errorf("%s", msg)
	s.writeError(w, http.StatusInternalServerError, msg)
}

// writeError writes the backend's error body.
func (s *Server) writeError(w http.ResponseWriter, code int, msg string) {
	if msg == "" {
		msg = fmt.Sprintf("fake error: %d %s", code, http.StatusText(code))
	}
	var body any = map[string]string{"error": msg}
	if s.backend == model.BackendOpenAI {
		typ := "invalid_request_error"
		if code >= 500 {
			typ = "server_error"
		}
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	writeJSON(w, code, body)
}

// prepare sets the reply's headers on w and, for a trickling reply,
// returns a writer that sends the body one byte at a time.
func (s *Server) prepare(ctx context.Context, w http.ResponseWriter, r Reply) http.ResponseWriter {
	for k, v := range r.header {
		w.Header().Set(k, v)
	}
	if r.trickle <= 0 {
		return w
	}
	return &trickleWriter{ResponseWriter: w, s: s, ctx: ctx, d: r.trickle}
}

// trickleWriter writes a body one byte at a time with a pause before each
// and a flush after it; once the client has left, writes fail.
type trickleWriter struct {
	http.ResponseWriter
	s   *Server
	ctx context.Context
	d   time.Duration
}

func (t *trickleWriter) Write(p []byte) (int, error) {
	for i := range p {
		if !t.s.pause(t.ctx, t.d) {
			return i, context.Canceled
		}
		if _, err := t.ResponseWriter.Write(p[i : i+1]); err != nil {
			return i, err
		}
		t.Flush()
	}
	return len(p), nil
}

// Flush sends what was written.
func (t *trickleWriter) Flush() {
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// hugePiece is the text a Huge reply repeats: JSON-safe, a space every 64 bytes.
var hugePiece = strings.Repeat(strings.Repeat("x", 63)+" ", 1024)

// writeHuge writes n bytes of hugePiece's text to w, calling each (when not
// nil) with every piece instead of writing it; it stops at the first error.
func writeHuge(w io.Writer, n int64, each func(string) error) error {
	for n > 0 {
		piece := hugePiece[:min(n, int64(len(hugePiece)))]
		n -= int64(len(piece))
		var err error
		if each != nil {
			err = each(piece)
		} else {
			_, err = io.WriteString(w, piece)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// readBody reads a request body; it fails the request on error.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return nil, false
	}
	return b, true
}

// completionTokens is the fake's count of a reply when none was scripted.
func completionTokens(r Reply) int {
	if r.completion >= 0 {
		return r.completion
	}
	n := len(r.text)
	for _, c := range r.calls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n/4 + 1
}

// promptTokens is the fake's count of a request when none was scripted.
func promptTokens(r Reply, body []byte) int {
	if r.prompt >= 0 {
		return r.prompt
	}
	return len(body)/4 + 1
}

// Client returns the real client of the server's backend, configured by
// Config: the way tests drive production code against this fake.
func (s *Server) Client(t testing.TB) model.Client {
	t.Helper()
	c, err := model.New(s.Config())
	if err != nil {
		t.Fatal(err)
	}
	return c
}
