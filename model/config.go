package model

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"bench/record"

	"github.com/ollama/ollama/envconfig"
)

// Backends New understands: record's, which the settings' table checks
// --backend against.
const (
	BackendOllama = record.BackendOllama
	BackendOpenAI = record.BackendOpenAI
)

// Defaults applied by New and by the clients when a field is left zero.
const (
	DefaultModel       = "qwen3:8b" // the model bench suggests and uses when none is named
	DefaultOllamaHost  = "http://127.0.0.1:11434"
	DefaultOpenAIHost  = "http://127.0.0.1:8080/v1" // mlx_lm.server and llama.cpp's server listen on 8080
	DefaultTimeout     = 10 * time.Minute           // one model call, each attempt
	DefaultMaxRetries  = 3
	DefaultRetryWindow = 60 * time.Second // how long an unreachable server is waited for
	DefaultRetryBase   = 500 * time.Millisecond
	DefaultDial        = 3 * time.Second  // a down host fails in seconds, not minutes
	InspectTimeout     = 10 * time.Second // one Inspect call
)

// CheckTimeout refuses a --timeout no model call can be made with. The
// run's check and --resume's ask it.
func CheckTimeout(d time.Duration) error { return record.CheckPositive("timeout", d) }

// ollamaPort is the port Ollama listens on unless told otherwise.
const ollamaPort = "11434"

// Config selects and tunes a model client.
//
// Zero fields take the defaults above. MaxRetries < 0 disables every retry;
// RetryWindow < 0 disables retrying an unreachable server. RetryBase and
// DialTimeout exist so tests can make backoff and dialling fast.
//
// A call is retried when another attempt may cure it: a 5xx up to
// MaxRetries times; a refused or dropped connection (ErrUnreachable) for up
// to RetryWindow after the first such failure, so that a server restarting
// mid-run is waited for; a timeout once at most.
type Config struct {
	Backend     string        // "ollama" (default) or "openai"
	Host        string        // base URL; "" = OLLAMA_HOST (ollama) / OPENAI_BASE_URL (openai), else the default
	Model       string        // model name as the server knows it
	Timeout     time.Duration // per attempt of one call
	MaxRetries  int           // retries after a 5xx
	RetryWindow time.Duration // how long a refused or dropped connection is retried
	Encoding    string        // token estimate encoding; "" = cl100k_base
	RetryBase   time.Duration // first backoff delay; doubled per retry, with jitter
	DialTimeout time.Duration // TCP connect timeout
	// MaxReplyBytes caps one reply (its text, thinking and tool calls);
	// 0 = the default for each request's options (Config.ReplyCap).
	MaxReplyBytes int64

	transport http.RoundTripper // the HTTP transport under the client's own; nil = a TCP one (tests replace it)
}

// withDefaults returns cfg with every zero field set.
func (cfg Config) withDefaults() Config {
	if cfg.Backend == "" {
		cfg.Backend = BackendOllama
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RetryWindow == 0 {
		cfg.RetryWindow = DefaultRetryWindow
	}
	if cfg.RetryWindow < 0 {
		cfg.RetryWindow = 0
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDial
	}
	return cfg
}

// BaseURL is the server address the client for cfg talks to: Config.Host,
// else the backend's environment variable, else the backend's default.
// OLLAMA_HOST is read as the ollama CLI reads it (envconfig.Host: a host
// without a port gets 11434, "0.0.0.0" included); so is a Config.Host
// without scheme or port on the Ollama backend. A bare host:port gets an
// http:// scheme; an OpenAI-compatible URL without a path gets /v1.
func (cfg Config) BaseURL() (string, error) {
	backend := cfg.Backend
	if backend == "" {
		backend = BackendOllama
	}
	host, def := strings.TrimSpace(cfg.Host), DefaultOllamaHost
	switch {
	case backend == BackendOpenAI:
		def = DefaultOpenAIHost
		if host == "" {
			host = strings.TrimSpace(os.Getenv("OPENAI_BASE_URL"))
		}
	case backend != BackendOllama:
		return "", fmt.Errorf("unknown backend %q: use %s or %s", backend, BackendOllama, BackendOpenAI)
	case host == "":
		host = envconfig.Host().String()
	case !strings.Contains(host, "://"):
		if _, _, err := net.SplitHostPort(host); err != nil {
			host = net.JoinHostPort(strings.Trim(host, "[]"), ollamaPort)
		}
	}
	if host == "" {
		host = def
	}
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("bad server address %q: expected a URL such as %s or a host:port", host, def)
	}
	if backend == BackendOpenAI && strings.Trim(u.Path, "/") == "" {
		u.Path = "/v1"
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// New returns the client for cfg.Backend.
func New(cfg Config) (Client, error) {
	cfg = cfg.withDefaults()
	switch cfg.Backend {
	case BackendOllama:
		return newOllama(cfg)
	case BackendOpenAI:
		return newOpenAI(cfg)
	}
	return nil, fmt.Errorf("unknown backend %q: use %s or %s", cfg.Backend, BackendOllama, BackendOpenAI)
}

// httpClient is the transport of both clients: a short dial timeout so a down
// host fails fast; no overall timeout, since each call carries its own.
func httpClient(cfg Config) *http.Client {
	if cfg.transport != nil {
		return &http.Client{Transport: capTransport{base: cfg.transport}}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: 30 * time.Second}
	tr.DialContext = d.DialContext
	return &http.Client{Transport: capTransport{base: tr}}
}

// Client is a Chatter that can also describe its server. The clients New
// returns are safe for concurrent use.
type Client interface {
	Chatter
	// Inspect asks the server for its version, its models and whether the
	// configured model is present and supports tools. It does not retry.
	Inspect(ctx context.Context) (ServerInfo, error)
}

// ServerInfo is what Inspect learned about the server.
//
// Tools is true when the server says the model supports tool calling, and
// Thinking when it says the model can think; both are also true when the
// server cannot say (OpenAI-compatible servers, Ollama before capabilities
// were reported): unknown is assumed to work, and a real refusal surfaces
// later as ErrNoToolSupport or ErrNoThinking.
type ServerInfo struct {
	Backend      string
	Host         string
	Model        string   // the configured model, as named
	Version      string   // "" when the server does not report one
	Models       []string // sorted
	HasModel     bool
	Digest       string   // Ollama only: the manifest's digest, as /api/tags reports it
	Weights      string   // Ollama only: the digests of the weights, as /api/show names them (see SameModel); "" when it does not
	Setup        string   // Ollama only: a digest of the template, system prompt and parameters /api/show reports
	Capabilities []string // Ollama's /api/show capabilities, sorted; nil when not reported
	Tools        bool
	Thinking     bool
}
