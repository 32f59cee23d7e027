package model

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"
)

// openaiClient talks to an OpenAI-compatible chat-completions server
// (mlx_lm.server, llama.cpp's server, vLLM, Ollama's /v1) over net/http:
// one non-streamed POST /chat/completions per attempt, GET /models to inspect.
//
// The context window is fixed when such a server starts, so num_ctx is not
// sent; think is passed as chat_template_kwargs.enable_thinking, which
// llama.cpp, vLLM and mlx_lm read and other servers ignore.
type openaiClient struct {
	cfg    Config
	host   string
	http   *http.Client
	header http.Header // sent with every request: the key, Accept, the organization and project when set
	est    *Estimator
	retry  retrier
	wire   *wire
}

// dummyAPIKey is sent when OPENAI_API_KEY is unset: local servers want none.
const dummyAPIKey = "bench-local"

// openaiUserAgent is what bench's OpenAI requests say they are.
const openaiUserAgent = "bench (openai chat)"

// errorBodyMax is the most bytes of an error answer bench reads.
const errorBodyMax = 64 << 10

func newOpenAI(cfg Config) (*openaiClient, error) {
	host, err := cfg.BaseURL()
	if err != nil {
		return nil, err
	}
	est, err := NewEstimator(cfg.Encoding)
	if err != nil {
		return nil, err
	}
	g := edge{backend: BackendOpenAI, host: host, model: cfg.Model, timeout: cfg.Timeout}
	return &openaiClient{
		cfg:    cfg,
		host:   host,
		http:   httpClient(cfg),
		header: openaiHeader(),
		wire:   newOpenAIWire(),
		est:    est,
		retry:  newRetrier(cfg, g),
	}, nil
}

// openaiHeader is the header of every request: the bearer key
// (OPENAI_API_KEY, else dummyAPIKey), Accept, and OpenAI-Organization and
// OpenAI-Project when OPENAI_ORG_ID and OPENAI_PROJECT_ID are set, as the
// official client sends them.
func openaiHeader() http.Header {
	key := os.Getenv("OPENAI_API_KEY")
	if key == "" {
		key = dummyAPIKey
	}
	h := http.Header{}
	h.Set("Authorization", "Bearer "+key)
	h.Set("Accept", "application/json")
	h.Set("User-Agent", openaiUserAgent)
	if v := os.Getenv("OPENAI_ORG_ID"); v != "" {
		h.Set("OpenAI-Organization", v)
	}
	if v := os.Getenv("OPENAI_PROJECT_ID"); v != "" {
		h.Set("OpenAI-Project", v)
	}
	return h
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
		var err error
		resp, err = c.once(r.edge, ctx, withCap(actx, wireCap(limit)), body)
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

// once makes one attempt: posts body and reads the completion.
func (c *openaiClient) once(g edge, parent, ctx context.Context, body *body) (Response, error) {
	b, err := c.do(g, parent, ctx, http.MethodPost, "/chat/completions", body)
	if err != nil {
		return Response{}, err
	}
	cc, err := decodeCompletion(b)
	if err != nil {
		e := g.classify(parent, err, 0, "")
		e.Kind, e.Detail = ErrBadReply, "expected a chat completion in JSON: "+clip(err.Error(), 200)
		return Response{}, e
	}
	return openaiReply(g, cc)
}

// do sends one request to path under the base URL (body nil for none)
// and returns the whole body of a successful answer; a failure, an answer
// of status 400 or more among them, is an *Error.
func (c *openaiClient) do(g edge, parent, ctx context.Context, method, path string, body *body) ([]byte, error) {
	hreq, err := http.NewRequestWithContext(ctx, method, c.host+path, nil)
	if err != nil {
		return nil, g.classify(parent, err, 0, "")
	}
	if body != nil {
		body.setOn(hreq)
	}
	hreq.Header = c.header.Clone()
	if body != nil {
		hreq.Header.Set("Content-Type", "application/json")
	}
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return nil, g.classify(parent, err, 0, "")
	}
	defer hresp.Body.Close()
	if hresp.StatusCode >= http.StatusBadRequest {
		b, _ := io.ReadAll(io.LimitReader(hresp.Body, errorBodyMax))
		msg := openaiErrorText(b, hresp.Status)
		err := fmt.Errorf("HTTP %s: %s", hresp.Status, msg)
		return nil, g.classify(parent, err, hresp.StatusCode, msg).withRetryAfter(hresp.Header)
	}
	b, err := io.ReadAll(hresp.Body)
	if err != nil {
		return nil, g.classify(parent, err, 0, "")
	}
	return b, nil
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

// modelList is the answer of GET /models.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}

// modelListMax is the most bytes of a model list bench reads.
const modelListMax = 16 << 20

// Inspect lists the served models (GET /models). OpenAI-compatible servers
// report neither a version nor capabilities: Version stays "" and Tools and
// Thinking are assumed true.
func (c *openaiClient) Inspect(ctx context.Context) (ServerInfo, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(withCap(ctx, modelListMax), min(InspectTimeout, c.cfg.Timeout))
	defer cancel()
	info := ServerInfo{Backend: BackendOpenAI, Host: c.host, Model: c.cfg.Model, Tools: true, Thinking: true}
	g := c.retry.edge
	b, err := c.do(g, parent, ctx, http.MethodGet, "/models", nil)
	if err != nil {
		if e, ok := err.(*Error); ok {
			switch e.Kind {
			case ErrModelNotFound:
				e.Kind = ErrRequest
			case ErrReplyTooLarge:
				e.Kind, e.Detail = ErrBadReply, fmt.Sprintf("the model list ran past %d bytes", modelListMax)
			}
		}
		return info, err
	}
	var list modelList
	if err := json.Unmarshal(b, &list); err != nil {
		e := g.classify(parent, err, 0, "")
		e.Kind, e.Detail = ErrBadReply, "expected a model list in JSON: "+clip(err.Error(), 200)
		return info, e
	}
	for _, m := range list.Data {
		info.Models = append(info.Models, m.ID)
		if sameModel(m.ID, c.cfg.Model) {
			info.HasModel = true
		}
	}
	slices.Sort(info.Models)
	return info, nil
}
