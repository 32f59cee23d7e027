package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// ollamaClient talks to an Ollama server through its official Go client.
type ollamaClient struct {
	cfg   Config
	host  string
	api   *api.Client
	est   *Estimator
	retry retrier
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
	g := edge{backend: BackendOllama, host: host, model: cfg.Model, timeout: cfg.Timeout}
	return &ollamaClient{
		cfg:   cfg,
		host:  host,
		api:   api.NewClient(u, httpClient(cfg)),
		est:   est,
		retry: newRetrier(cfg, g),
	}, nil
}

func (c *ollamaClient) edge() edge { return c.retry.edge }

// Chat sends req as one streamed /api/chat call and assembles the reply.
func (c *ollamaClient) Chat(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	areq, err := c.chatRequest(req)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	attempt := func() (int, error) {
		return c.retry.do(ctx, func(actx context.Context) error {
			var err error
			resp, err = c.once(ctx, actx, areq)
			return err
		})
	}
	retries, err := attempt()
	if err != nil && !req.Options.Think && thinkRefused(err) {
		// Older Ollama servers refuse any "think" field, false included,
		// for a model that cannot think; such a model does not think anyway.
		areq.Think = nil
		var more int
		more, err = attempt()
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

// once makes one attempt: streams the reply and assembles it.
func (c *ollamaClient) once(parent, ctx context.Context, areq *api.ChatRequest) (Response, error) {
	var (
		resp    Response
		content strings.Builder
		done    bool
	)
	ctx, tl := withTail(ctx)
	resp.Message.Role = RoleAssistant
	err := c.api.Chat(ctx, areq, func(r api.ChatResponse) error {
		content.WriteString(r.Message.Content)
		for _, tc := range r.Message.ToolCalls {
			resp.Message.ToolCalls = append(resp.Message.ToolCalls, ToolCall{
				ID:        tc.ID,
				Name:      tc.Function.Name,
				Arguments: encodeArgs(&tc.Function.Arguments),
			})
		}
		if r.Done {
			done = true
			resp.DoneReason = r.DoneReason
			resp.Usage.PromptTokens = r.PromptEvalCount
			resp.Usage.CompletionTokens = r.EvalCount
			resp.ModelTime = r.TotalDuration
		}
		return nil
	})
	if err == nil && !done {
		// api.Client ignores the scanner's error: a stream cut by the
		// attempt's deadline (or the caller's cancel) ends as if the server
		// had closed it. The context tells which it was.
		err = errDropped
		if ctx.Err() != nil {
			err = ctx.Err()
		}
	}
	if err != nil {
		return Response{}, c.classify(parent, err, tl)
	}
	resp.Message.Content = content.String()
	resp.DoneReason = stopReason(resp.DoneReason, len(resp.Message.ToolCalls) > 0)
	return resp, nil
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

// classify maps an error of the Ollama client to an *Error.
// tl, when not nil, holds the end of the reply body.
func (c *ollamaClient) classify(parent context.Context, err error, tl *tail) *Error {
	var se api.StatusError
	if errors.As(err, &se) {
		return c.edge().classify(parent, err, se.StatusCode, se.ErrorMessage)
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return c.edge().classify(parent, err, ae.StatusCode, ae.Error())
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		e := c.edge().classify(parent, err, 0, "")
		if e.Kind == ErrBadReply {
			e.Detail = "a streamed chunk is not a chat response: " + err.Error()
		}
		return e
	}
	e := c.edge().classify(parent, err, 0, "")
	if e.Kind == ErrBadReply && tl != nil && !tl.rawLine(err.Error()) {
		// Not a line of the body: api.Client hands back the message of an
		// in-stream {"error": ...} as bare text.
		e.Kind, e.Detail = ErrServer, "the server reported: "+err.Error()
		if strings.Contains(strings.ToLower(err.Error()), "does not support tools") {
			e.Kind = ErrNoToolSupport
		}
	} else if e.Kind == ErrBadReply {
		e.Detail = fmt.Sprintf("expected JSON lines, got %q", clip(err.Error(), 120))
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

// chatRequest converts req into Ollama's wire form.
func (c *ollamaClient) chatRequest(req Request) (*api.ChatRequest, error) {
	msgs, err := ollamaMessages(req.Messages)
	if err != nil {
		return nil, err
	}
	tools, err := ollamaTools(req.Tools)
	if err != nil {
		return nil, err
	}
	stream := true
	return &api.ChatRequest{
		Model:    c.cfg.Model,
		Messages: msgs,
		Stream:   &stream,
		Tools:    tools,
		Options:  ollamaOptions(req.Options),
		Think:    &api.ThinkValue{Value: req.Options.Think},
	}, nil
}

// ollamaOptions always holds seed, temperature and num_ctx; top_p and
// num_predict when set.
func ollamaOptions(o Options) map[string]any {
	numCtx := o.NumCtx
	if numCtx <= 0 {
		numCtx = DefaultNumCtx
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

func ollamaMessages(in []Message) ([]api.Message, error) {
	out := make([]api.Message, 0, len(in))
	for _, m := range in {
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
		out = append(out, am)
	}
	return out, nil
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

// Inspect asks /api/version, /api/tags and, when the model is present,
// /api/show for its capabilities. A server that lists no capabilities is
// assumed to support tools and thinking.
func (c *ollamaClient) Inspect(ctx context.Context) (ServerInfo, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, min(InspectTimeout, c.cfg.Timeout))
	defer cancel()
	info := ServerInfo{Backend: BackendOllama, Host: c.host, Model: c.cfg.Model}
	v, err := c.api.Version(ctx)
	if err != nil {
		return info, c.classifyInspect(parent, err)
	}
	info.Version = v
	list, err := c.api.List(ctx)
	if err != nil {
		return info, c.classifyInspect(parent, err)
	}
	for _, m := range list.Models {
		info.Models = append(info.Models, m.Name)
		if sameModel(m.Name, c.cfg.Model) || sameModel(m.Model, c.cfg.Model) {
			info.HasModel, info.Digest = true, m.Digest
		}
	}
	slices.Sort(info.Models)
	if !info.HasModel {
		return info, nil
	}
	show, err := c.api.Show(ctx, &api.ShowRequest{Model: c.cfg.Model})
	if err != nil {
		return info, c.classifyInspect(parent, err)
	}
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
	e := c.classify(parent, err, nil)
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
