package model

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"bench/record"

	"github.com/ollama/ollama/api"
)

// ollamaClient talks to an Ollama server: /api/chat is streamed by bench
// itself (one encoded body for every attempt of a call, a pooled line
// buffer, the reply read under the call's deadline and its size cap, a
// stream's own errors kept), with the official client's wire types; the
// other endpoints go through the official client.
type ollamaClient struct {
	cfg     Config
	host    string
	chatURL string
	http    *http.Client
	api     *api.Client
	est     *Estimator
	retry   retrier
	wire    *wire
}

func newOllama(cfg Config) (*ollamaClient, error) {
	host, err := cfg.BaseURL()
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, err
	}
	est, err := NewEstimator(cfg.Encoding)
	if err != nil {
		return nil, err
	}
	hc := httpClient(cfg)
	g := edge{backend: BackendOllama, host: host, model: cfg.Model, timeout: cfg.Timeout}
	return &ollamaClient{
		cfg:     cfg,
		host:    host,
		chatURL: u.JoinPath("/api/chat").String(),
		http:    hc,
		api:     api.NewClient(u, hc),
		est:     est,
		retry:   newRetrier(cfg, g),
		wire:    newWire(),
	}, nil
}

func (c *ollamaClient) edge() edge { return c.retry.edge }

// Chat sends req as one streamed /api/chat call and assembles the reply.
func (c *ollamaClient) Chat(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	limit := c.cfg.ReplyCap(req.Options)
	r := c.retry
	r.edge.maxReply = limit
	var resp Response
	attempt := func(think *api.ThinkValue) (int, error) {
		body, err := c.wire.chatBody(c.cfg.Model, req, think) // once per call: every attempt sends these bytes
		if err != nil {
			return 0, err
		}
		return r.do(ctx, func(actx context.Context) error {
			var err error
			resp, err = c.once(r.edge, ctx, actx, body, limit)
			return err
		})
	}
	retries, err := attempt(&api.ThinkValue{Value: req.Options.Think})
	if err != nil && !req.Options.Think && thinkRefused(err) {
		// Older Ollama servers refuse any "think" field, false included,
		// for a model that cannot think; such a model does not think anyway.
		var more int
		more, err = attempt(nil)
		retries += more + 1
	}
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Retries = retries
		}
		return Response{Retries: retries, Wall: time.Since(start)}, err
	}
	resp.Retries = retries
	resp.Wall = time.Since(start)
	if resp.ModelTime == 0 {
		resp.ModelTime = resp.Wall
	}
	c.est.fill(req, &resp)
	return resp, nil
}

// thinkRefused reports the 400 an Ollama server gives for a "think" field
// sent to a model that cannot think.
func thinkRefused(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == ErrNoThinking
}

// userAgent is what bench's chat requests say they are.
const userAgent = "bench (ollama chat)"

// once makes one attempt: posts body and reads the streamed reply, at
// most limit bytes of it.
func (c *ollamaClient) once(g edge, parent, ctx context.Context, body *body, limit int64) (Response, error) {
	hreq, err := http.NewRequestWithContext(withCap(ctx, wireCap(limit)), http.MethodPost, c.chatURL, nil)
	if err != nil {
		return Response{}, g.classify(parent, err, 0, "")
	}
	body.setOn(hreq)
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/x-ndjson")
	hreq.Header.Set("User-Agent", userAgent)
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return Response{}, g.classify(parent, err, 0, "")
	}
	defer hresp.Body.Close()
	if hresp.StatusCode >= http.StatusBadRequest {
		status, msg := hresp.StatusCode, errorText(hresp.Body)
		return Response{}, g.classify(parent, fmt.Errorf("HTTP %s: %s", hresp.Status, msg), status, msg).withRetryAfter(hresp.Header)
	}
	resp, err := c.read(g, hresp.Body, limit)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return Response{}, e
		}
		return Response{}, g.classify(parent, err, 0, "")
	}
	return resp, nil
}

// errorText is the message of an error answer's body: its "error" field
// when it is Ollama's JSON, else the start of the body as text.
func errorText(body io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(body, 64<<10))
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error != "" {
		return e.Error
	}
	return clip(strings.TrimSpace(string(b)), 200)
}

// ollamaLine is one line of /api/chat's stream: a chunk, or the error
// the server writes into the stream instead.
type ollamaLine struct {
	api.ChatResponse
	Error string `json:"error"`
}

// linePool holds the line buffers of streamed replies, so that a call does
// not allocate one (a line longer than the buffer grows a copy of its own).
var linePool = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// read assembles the streamed reply from body: each line a JSON chunk,
// the last one done. The reply's text, thinking and tool calls may hold
// at most limit bytes (errTooLarge); a stream that ends before its final
// chunk is dropped (errDropped), and one whose read failed is that
// failure, never the half line it cut.
func (c *ollamaClient) read(g edge, body io.Reader, limit int64) (Response, error) {
	buf := linePool.Get().(*[]byte)
	defer linePool.Put(buf)
	cr := &countReader{r: body}
	sc := bufio.NewScanner(cr)
	sc.Buffer((*buf)[:0], int(min(limit+64<<10, math.MaxInt32)))
	partial := false
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			partial = true
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	var (
		resp    Response
		content strings.Builder
		size    int64
	)
	resp.Message.Role = RoleAssistant
	for sc.Scan() {
		if partial && cr.err != nil && cr.err != io.EOF {
			break // a line cut by a failed read: the failure is the answer
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var chunk ollamaLine
		if err := json.Unmarshal(line, &chunk); err != nil {
			e := g.classify(context.Background(), err, 0, "")
			e.Kind, e.Detail = ErrBadReply, fmt.Sprintf("expected JSON lines, got %q", clip(string(line), 120))
			return Response{}, e
		}
		if chunk.Error != "" {
			e := g.classify(context.Background(), errors.New(chunk.Error), 500, chunk.Error)
			if e.Kind == ErrServer {
				e.Detail = "the server reported: " + chunk.Error
			}
			return Response{}, e
		}
		m := chunk.Message
		content.WriteString(m.Content)
		size += int64(len(m.Content) + len(m.Thinking))
		for _, tc := range m.ToolCalls {
			call := ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: encodeArgs(&tc.Function.Arguments)}
			size += int64(len(call.Name) + len(call.Arguments))
			resp.Message.ToolCalls = append(resp.Message.ToolCalls, call)
		}
		if size > limit {
			return Response{}, errTooLarge
		}
		if chunk.Done {
			resp.Message.Content = content.String()
			resp.DoneReason = stopReason(chunk.DoneReason, len(resp.Message.ToolCalls) > 0)
			resp.Usage.PromptTokens = chunk.PromptEvalCount
			resp.Usage.CompletionTokens = chunk.EvalCount
			resp.ModelTime, resp.ServerTime = chunk.TotalDuration, chunk.TotalDuration
			return resp, nil
		}
	}
	switch err := cmp.Or(sc.Err(), cr.failure()); {
	case errors.Is(err, bufio.ErrTooLong):
		return Response{}, errTooLarge
	case err != nil:
		return Response{}, err
	}
	return Response{}, errDropped
}

// countReader passes reads on and keeps the last error.
type countReader struct {
	r   io.Reader
	err error
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// failure is the read error that ended the body, nil for its clean end.
func (c *countReader) failure() error {
	if c.err == io.EOF {
		return nil
	}
	return c.err
}

// encodeArgs re-encodes tool-call arguments as JSON text in the order the
// server gave them, without escaping <, > and & (code often holds them).
func encodeArgs(args *api.ToolCallFunctionArguments) string {
	var b strings.Builder
	b.WriteByte('{')
	i := 0
	for k, v := range args.All() {
		kb, err1 := marshalPlain(k)
		vb, err2 := marshalPlain(v)
		if err1 != nil || err2 != nil {
			return args.String()
		}
		if i > 0 {
			b.WriteByte(',')
		}
		i++
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.String()
}

// marshalPlain is json.Marshal without HTML escaping.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// classify maps an error of the official client (Inspect's calls) to an *Error.
func (c *ollamaClient) classify(parent context.Context, err error) *Error {
	var se api.StatusError
	if errors.As(err, &se) {
		return c.edge().classify(parent, err, se.StatusCode, se.ErrorMessage)
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return c.edge().classify(parent, err, ae.StatusCode, ae.Error())
	}
	e := c.edge().classify(parent, err, 0, "")
	if e.Kind == ErrBadReply {
		e.Detail = fmt.Sprintf("expected JSON, got %q", clip(err.Error(), 120))
	}
	return e
}

// clip shortens s to n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ollamaOptions always holds seed, temperature and num_ctx; top_p and
// num_predict when set.
func ollamaOptions(o Options) map[string]any {
	numCtx := o.NumCtx
	if numCtx <= 0 {
		numCtx = record.DefaultNumCtx
	}
	m := map[string]any{
		"seed":        o.Seed,
		"temperature": o.Temperature,
		"num_ctx":     numCtx,
	}
	if o.TopP != 0 {
		m["top_p"] = o.TopP
	}
	if o.MaxReplyTokens > 0 {
		m["num_predict"] = o.MaxReplyTokens
	}
	return m
}

// ollamaMessage converts one message into Ollama's wire form.
func ollamaMessage(m Message) api.Message {
	am := api.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
	for i, tc := range m.ToolCalls {
		args := api.NewToolCallFunctionArguments()
		if strings.TrimSpace(tc.Arguments) != "" {
			// Malformed arguments (the model's own) are sent back empty:
			// Ollama's wire form holds an object, not text.
			_ = json.Unmarshal([]byte(tc.Arguments), &args)
		}
		am.ToolCalls = append(am.ToolCalls, api.ToolCall{
			ID:       tc.ID,
			Function: api.ToolCallFunction{Index: i, Name: tc.Name, Arguments: args},
		})
	}
	return am
}

// ollamaTools converts the tools, in the order given.
func ollamaTools(in []Tool) (api.Tools, error) {
	var out api.Tools
	for _, t := range in {
		var p api.ToolFunctionParameters
		schema := t.Parameters
		if len(strings.TrimSpace(string(schema))) == 0 {
			schema = []byte(`{"type":"object","properties":{}}`)
		}
		if err := json.Unmarshal(schema, &p); err != nil {
			return nil, fmt.Errorf("tool %q: parameters must be a JSON Schema object: %v", t.Name, err)
		}
		if p.Properties == nil {
			p.Properties = api.NewToolPropertiesMap()
		}
		out = append(out, api.Tool{
			Type:     "function",
			Function: api.ToolFunction{Name: t.Name, Description: t.Description, Parameters: p},
		})
	}
	return out, nil
}

// Inspect asks /api/version, /api/tags and /api/show at once (a distant
// server then costs one round trip, not three): the version, whether the
// model is present and, when it is, its weights and capabilities. A
// server that lists no capabilities is assumed to support tools and
// thinking.
func (c *ollamaClient) Inspect(ctx context.Context) (ServerInfo, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, min(InspectTimeout, c.cfg.Timeout))
	defer cancel()
	info := ServerInfo{Backend: BackendOllama, Host: c.host, Model: c.cfg.Model}
	var (
		wg                  sync.WaitGroup
		v                   string
		list                *api.ListResponse
		show                *api.ShowResponse
		vErr, lErr, showErr error
	)
	wg.Go(func() { v, vErr = c.api.Version(ctx) })
	wg.Go(func() { list, lErr = c.api.List(ctx) })
	wg.Go(func() { show, showErr = c.api.Show(ctx, &api.ShowRequest{Model: c.cfg.Model}) })
	wg.Wait()
	if err := cmp.Or(vErr, lErr); err != nil {
		return info, c.classifyInspect(parent, err)
	}
	info.Version = v
	for _, m := range list.Models {
		info.Models = append(info.Models, m.Name)
		if sameModel(m.Name, c.cfg.Model) || sameModel(m.Model, c.cfg.Model) {
			info.HasModel, info.Digest = true, m.Digest
		}
	}
	slices.Sort(info.Models)
	if !info.HasModel {
		return info, nil // /api/show said 404, as it should
	}
	if showErr != nil {
		return info, c.classifyInspect(parent, showErr)
	}
	info.Weights = weightsOf(show.Modelfile)
	info.Setup = setupOf(show.Template, show.System, show.Parameters)
	for _, cp := range show.Capabilities {
		info.Capabilities = append(info.Capabilities, string(cp))
	}
	slices.Sort(info.Capabilities)
	unknown := len(info.Capabilities) == 0
	info.Tools = unknown || slices.Contains(info.Capabilities, capTools)
	info.Thinking = unknown || slices.Contains(info.Capabilities, capThinking)
	return info, nil
}

// Capabilities of Ollama's /api/show that bench asks for.
const (
	capTools    = "tools"
	capThinking = "thinking"
)

// classifyInspect classifies an Inspect failure; there a 404 means the
// address is not an Ollama server, not a missing model.
func (c *ollamaClient) classifyInspect(parent context.Context, err error) error {
	e := c.classify(parent, err)
	if e.Kind == ErrModelNotFound {
		e.Kind, e.Detail = ErrRequest, "HTTP 404 from the Ollama API: is this an Ollama server? "+e.Detail
	}
	return e
}

// sameModel compares model names the Ollama way, where "name" means
// "name:latest"; both backends use it, since an OpenAI-compatible Ollama
// (/v1) lists "tiny:latest" for a model pulled as "tiny".
func sameModel(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return norm(a) == norm(b)
}
