package model

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Fix is the one place bench's hints live: what to run or change to cure
// e, naming the host and port in use. For Ollama a host other than the
// local default is passed to the ollama CLI as OLLAMA_HOST; for an
// OpenAI-compatible server no Ollama command or tag is ever suggested.
// It returns "" when there is nothing better to say than the server's words.
func (e *Error) Fix() string {
	openai := e.Backend == BackendOpenAI
	switch e.Kind {
	case ErrModelNotFound:
		if openai {
			return openaiMissingFix(e.Host, e.Model)
		}
		return fmt.Sprintf("run `%s`", PullCommand(e.Host, e.Model))
	case ErrUnreachable:
		if openai {
			return openaiServeFix(e.Host, e.Model) + ", or point elsewhere with --host, or use --backend ollama"
		}
		return ollamaServeFix(e.Host) + ", or point elsewhere with --host, OLLAMA_HOST or --backend openai"
	case ErrNoToolSupport:
		if openai {
			return "choose a model that supports tool calling with --model (llama-server needs --jinja for tool calls)"
		}
		return fmt.Sprintf("choose a model that supports tool calling with --model, e.g. `%sollama pull %s` and --model %s",
			ollamaEnv(e.Host), DefaultModel, DefaultModel)
	case ErrNoThinking:
		return "drop --think, or choose a model that can"
	case ErrTimeout:
		if e.Status == 408 {
			return "see the request timeout of the server or of a proxy in front of it"
		}
		return "raise the limit with --timeout"
	case ErrServer:
		if e.Status == 429 {
			return "lower --parallel (or --parallel-per-host), or raise the server's rate limit"
		}
		return "see the server's log"
	case ErrAuth:
		if openai {
			return "set OPENAI_API_KEY to a key the server accepts"
		}
		return fmt.Sprintf("Ollama asks for no key: check what answers at %s (a proxy in front of Ollama?) or point elsewhere with --host", hostPort(e.Host))
	case ErrRequestTooLarge:
		return "raise the server's limit on a request (a proxy's body size, the context size), or lower --max-turns"
	case ErrReplyTooLarge:
		return "raise --max-reply-bytes if replies this long are expected"
	case ErrBadReply:
		if openai {
			return fmt.Sprintf("check that %s is an OpenAI-compatible /v1 endpoint (--host)", e.Host)
		}
		return fmt.Sprintf("check that %s is an Ollama server (--host, OLLAMA_HOST)", hostPort(e.Host))
	}
	return ""
}

// PullCommand is the command that pulls model name onto the Ollama server
// at host: `ollama pull qwen3:8b`, with OLLAMA_HOST=… before it for a host
// other than the local default.
func PullCommand(host, name string) string { return ollamaEnv(host) + "ollama pull " + name }

// ollamaServeFix says how to start Ollama where bench looks for it.
func ollamaServeFix(host string) string {
	switch {
	case isDefaultOllama(host):
		return "start it with `ollama serve`"
	case isLocal(host):
		return fmt.Sprintf("start it with `%sollama serve`", ollamaEnv(host))
	}
	return fmt.Sprintf("start it on %s with `OLLAMA_HOST=0.0.0.0:%s ollama serve`", hostname(host), port(host))
}

// openaiServeFix says how to start an OpenAI-compatible server on the port
// bench uses; the model is named only when it is a hub id such servers load.
func openaiServeFix(host, model string) string {
	p := port(host)
	mlx := fmt.Sprintf("mlx_lm.server --port %s", p)
	vllm := fmt.Sprintf("vllm serve MODEL --port %s", p)
	if isHubID(model) {
		mlx = fmt.Sprintf("mlx_lm.server --model %s --port %s", model, p)
		vllm = fmt.Sprintf("vllm serve %s --port %s", model, p)
	}
	where := ""
	if !isLocal(host) {
		where = " on " + hostname(host)
	}
	return fmt.Sprintf("start an OpenAI-compatible server%s on port %s (`%s`, `llama-server -m MODEL.gguf --port %s` or `%s`)", where, p, mlx, p, vllm)
}

// openaiMissingFix says how to get a model onto an OpenAI-compatible server.
func openaiMissingFix(host, model string) string {
	fix := fmt.Sprintf("pass --model with a model the server serves (`bench doctor --backend openai --host %s` lists them)", host)
	if isHubID(model) {
		fix += fmt.Sprintf(", or restart it with `mlx_lm.server --model %s --port %s`", model, port(host))
	}
	return fix
}

// isHubID reports whether a model name is a Hugging Face repository id
// (owner/name), which OpenAI-compatible servers load, rather than an Ollama tag.
func isHubID(model string) bool {
	return strings.Count(model, "/") == 1 && !strings.Contains(model, ":")
}

// ollamaEnv is the OLLAMA_HOST= prefix that points the ollama CLI at host,
// or "" for the local default.
func ollamaEnv(host string) string {
	if isDefaultOllama(host) {
		return ""
	}
	u, err := url.Parse(host)
	if err != nil || u.Scheme != "http" || strings.Trim(u.Path, "/") != "" {
		return "OLLAMA_HOST=" + host + " "
	}
	return "OLLAMA_HOST=" + hostPort(host) + " "
}

// isDefaultOllama reports whether host is where the ollama CLI looks by default.
func isDefaultOllama(host string) bool {
	u, err := url.Parse(host)
	return err == nil && u.Scheme == "http" && isLocal(host) && port(host) == ollamaPort && strings.Trim(u.Path, "/") == ""
}

// isLocal reports whether host is this machine.
func isLocal(host string) bool {
	switch h := hostname(host); h {
	case "", "localhost", "0.0.0.0", "::":
		return true
	default:
		ip := net.ParseIP(h)
		return ip != nil && ip.IsLoopback()
	}
}

// hostPort is host's host:port, the port filled in from the scheme.
func hostPort(host string) string {
	return net.JoinHostPort(hostname(host), port(host))
}

func hostname(host string) string {
	u, err := url.Parse(host)
	if err != nil {
		return host
	}
	return u.Hostname()
}

// port is host's port, or its scheme's.
func port(host string) string {
	u, err := url.Parse(host)
	switch {
	case err != nil:
		return ""
	case u.Port() != "":
		return u.Port()
	case u.Scheme == "https":
		return "443"
	}
	return "80"
}
