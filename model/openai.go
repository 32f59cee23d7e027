package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openaiClient talks to an OpenAI-compatible chat-completions server
// (mlx_lm.server, llama.cpp's server, vLLM) through the official Go client.
//
// The context window is fixed when such a server starts, so num_ctx is not
// sent; think is passed as chat_template_kwargs.enable_thinking, which
// llama.cpp, vLLM and mlx_lm read and other servers ignore.
type openaiClient struct {
	cfg   Config
	host  string
	api   openai.Client
	est   *Estimator
	retry retrier
	wire  *wire
}

// dummyAPIKey is sent when OPENAI_API_KEY is unset: local servers want none.
const dummyAPIKey = "bench-local"

func newOpenAI(cfg Config) (*openaiClient, error) {
	host, err := cfg.BaseURL()
	if err != nil {
		return nil, err
	}
	est, err := NewEstimator(cfg.Encoding)
	if err != nil {
		return nil, err
	}
	key := os.Getenv("OPENAI_API_KEY")
	if key == "" {
		key = dummyAPIKey
	}
	g := edge{backend: BackendOpenAI, host: host, model: cfg.Model, timeout: cfg.Timeout}
	return &openaiClient{
		cfg:  cfg,
		host: host,
		wire: newOpenAIWire(),
		api: openai.NewClient(
			option.WithBaseURL(host+"/"),
			option.WithAPIKey(key),
			option.WithHTTPClient(httpClient(cfg)),
			option.WithMaxRetries(0), // bench retries, and counts them
		),
		est:   est,
		retry: newRetrier(cfg, g),
	}, nil
}

// Chat sends req as one non-streamed chat completion, its body built
// once from wire's kept encodings for every attempt.
func (c *openaiClient) Chat(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	body, err := c.openaiBody(req)
	if err != nil {
		return Response{}, err
	}
	limit := c.cfg.ReplyCap(req.Options)
	r := c.retry
	r.edge.maxReply = limit
	var resp Response
	retries, err := r.do(ctx, func(actx context.Context) error {
		pieces := net.Buffers(slices.Clone(body))
		cc, err := c.api.Chat.Completions.New(withCap(actx, wireCap(limit)), openai.ChatCompletionNewParams{},
			option.WithRequestBody("application/json", &pieces))
		if err != nil {
			return c.classifyWith(r.edge, ctx, err)
		}
		resp, err = c.reply(cc)
		if err == nil && replySize(resp.Message) > limit {
			return r.edge.classify(ctx, errTooLarge, 0, "")
		}
		return err
	})
	resp.Retries = retries
	resp.Wall = time.Since(start)
	if err != nil {
		return Response{Retries: retries, Wall: resp.Wall}, err
	}
	resp.ModelTime = resp.Wall
	c.est.fill(req, &resp)
	return resp, nil
}

// replySize is the bytes of a reply the reply cap counts: its text and its
// tool calls' names and arguments.
func replySize(m Message) int64 {
	n := int64(len(m.Content))
	for _, tc := range m.ToolCalls {
		n += int64(len(tc.Name) + len(tc.Arguments))
	}
	return n
}

// reply converts the first choice of a completion.
func (c *openaiClient) reply(cc *openai.ChatCompletion) (Response, error) {
	if len(cc.Choices) == 0 {
		e := c.retry.edge.classify(context.Background(), errors.New("no choices"), 0, "the completion has no choices")
		e.Kind = ErrBadReply
		return Response{}, e
	}
	ch := cc.Choices[0]
	resp := Response{
		Message:    Message{Role: RoleAssistant, Content: ch.Message.Content},
		DoneReason: ch.FinishReason,
		Usage: Usage{
			PromptTokens:     int(cc.Usage.PromptTokens),
			CompletionTokens: int(cc.Usage.CompletionTokens),
		},
	}
	for _, tc := range ch.Message.ToolCalls {
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, ToolCall{
			ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments,
		})
	}
	resp.DoneReason = stopReason(resp.DoneReason, len(resp.Message.ToolCalls) > 0)
	return resp, nil
}

// classify maps an error of the OpenAI client to an *Error.
func (c *openaiClient) classify(parent context.Context, err error) *Error {
	return c.classifyWith(c.retry.edge, parent, err)
}

// classifyWith is classify with the edge of one call.
func (c *openaiClient) classifyWith(g edge, parent context.Context, err error) *Error {
	var ae *openai.Error
	if errors.As(err, &ae) {
		detail := ae.Message
		if detail == "" {
			detail = clip(ae.RawJSON(), 200)
		}
		if detail == "" && ae.Response != nil {
			detail = ae.Response.Status
		}
		e := g.classify(parent, err, ae.StatusCode, detail)
		if ae.Response != nil {
			e.withRetryAfter(ae.Response.Header)
		}
		return e
	}
	e := g.classify(parent, err, 0, "")
	if e.Kind == ErrBadReply {
		e.Detail = "expected a chat completion in JSON: " + clip(err.Error(), 200)
	}
	return e
}

// openaiTools converts the tools, in the order given.
func openaiTools(in []Tool) ([]openai.ChatCompletionToolUnionParam, error) {
	var out []openai.ChatCompletionToolUnionParam
	for _, t := range in {
		var schema map[string]any
		raw := t.Parameters
		if len(raw) == 0 {
			raw = []byte(`{"type":"object","properties":{}}`)
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			return nil, fmt.Errorf("tool %q: parameters must be a JSON Schema object: %v", t.Name, err)
		}
		fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fd.Description = openai.String(t.Description)
		}
		out = append(out, openai.ChatCompletionFunctionTool(fd))
	}
	return out, nil
}

// newOpenAIWire is the wire of chat completions.
func newOpenAIWire() *wire {
	return &wire{msgs: map[msgKey]kept{}, tools: map[string][]byte{},
		msgForm:   func(m Message) any { return openaiMessage(m) },
		toolsForm: func(ts []Tool) (any, error) { return openaiTools(ts) }}
}

// openaiBody is the JSON body of a chat completion for req, as pieces to
// be sent one after the other, from w's kept encodings: the request params
// would give, with chat_template_kwargs.enable_thinking set to think.
func (c *openaiClient) openaiBody(req Request) ([][]byte, error) {
	o := req.Options
	var head bytes.Buffer
	head.WriteString(`{"model":`)
	if err := appendJSON(&head, c.cfg.Model); err != nil {
		return nil, err
	}
	head.WriteString(`,"messages":[`)
	pieces := [][]byte{head.Bytes()}
	for i, m := range req.Messages {
		if i > 0 {
			pieces = append(pieces, comma)
		}
		enc, err := c.wire.message(m)
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, enc)
	}
	var tail bytes.Buffer
	tail.WriteString("]")
	fields := []struct {
		name string
		v    any
		set  bool
	}{
		{"seed", o.Seed, true}, {"temperature", o.Temperature, true},
		{"top_p", o.TopP, o.TopP != 0}, {"max_tokens", o.MaxReplyTokens, o.MaxReplyTokens > 0},
		{"chat_template_kwargs", map[string]bool{"enable_thinking": o.Think}, true},
	}
	for _, f := range fields {
		if !f.set {
			continue
		}
		tail.WriteString(`,"` + f.name + `":`)
		if err := appendJSON(&tail, f.v); err != nil {
			return nil, err
		}
	}
	if len(req.Tools) > 0 {
		enc, err := c.wire.toolList(req.Tools)
		if err != nil {
			return nil, err
		}
		tail.WriteString(`,"tools":`)
		tail.Write(enc)
	}
	tail.WriteByte('}')
	return append(pieces, tail.Bytes()), nil
}

// openaiMessage converts one message; tool results become tool messages
// answering their tool_call_id.
func openaiMessage(m Message) openai.ChatCompletionMessageParamUnion {
	switch m.Role {
	case RoleSystem:
		return openai.SystemMessage(m.Content)
	case RoleTool:
		return openai.ToolMessage(m.Content, m.ToolCallID)
	case RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		a.Content.OfString = openai.String(m.Content)
		for _, tc := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name: tc.Name, Arguments: tc.Arguments,
					},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
	}
	return openai.UserMessage(m.Content)
}

// Inspect lists the served models (GET /models). OpenAI-compatible servers
// report neither a version nor capabilities: Version stays "" and Tools and
// Thinking are assumed true.
func (c *openaiClient) Inspect(ctx context.Context) (ServerInfo, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, min(InspectTimeout, c.cfg.Timeout))
	defer cancel()
	info := ServerInfo{Backend: BackendOpenAI, Host: c.host, Model: c.cfg.Model, Tools: true, Thinking: true}
	page, err := c.api.Models.List(ctx)
	if err != nil {
		e := c.classify(parent, err)
		if e.Kind == ErrModelNotFound {
			e.Kind = ErrRequest
		}
		return info, e
	}
	for _, m := range page.Data {
		info.Models = append(info.Models, m.ID)
		if sameModel(m.ID, c.cfg.Model) {
			info.HasModel = true
		}
	}
	slices.Sort(info.Models)
	return info, nil
}
