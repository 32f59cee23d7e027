package preflight

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bench/model"
	"bench/runner"
)

// minOllama is the oldest Ollama with tool calling (0.3.0).
var minOllama = [3]int{0, 3, 0}

// serverChecks words what one server said (runner.Inspect); the checks
// that depend on a reachable server are left out when it is not, and tool
// support is skipped when no track uses tools. A failure the model package
// classifies is worded by its *model.Error, which carries the fix.
func serverChecks(in runner.Inspection, need Needs) []Check {
	cfg, info, err := in.Config, in.Info, in.Err
	isOllama := cfg.Backend == "" || cfg.Backend == model.BackendOllama
	if in.Client == nil {
		return []Check{{Name: Server, Status: Fail, Text: err.Error(), Fix: "bench doctor --backend ollama|openai --host URL", Host: cfg.Host, Model: cfg.Model}}
	}
	if err != nil {
		c := Check{Name: Server, Status: Fail, Text: err.Error(), Host: info.Host, Model: cfg.Model}
		var me *model.Error
		if errors.As(err, &me) {
			c.Kind = me.Kind
		} else {
			c.Fix = "check that --host / OLLAMA_HOST points at an Ollama server, or --host at an OpenAI-compatible /v1 endpoint with --backend openai"
		}
		return []Check{c}
	}
	kind := "Ollama"
	if !isOllama {
		kind = "OpenAI-compatible server"
	}
	checks := []Check{{Name: Server, Status: Pass, Text: fmt.Sprintf("%s at %s is reachable", kind, info.Host), Host: info.Host}}
	checks = append(checks, versionCheck(info, isOllama), modelCheck(cfg, info))
	switch {
	case slices.Contains(need.ToolFree, cfg.Model):
		checks = append(checks, Check{Name: Tools, Status: Skipped, Text: cfg.Model + " is asked without tools (--workflow-model)"})
	case !need.Tools:
		checks = append(checks, Check{Name: Tools, Status: Skipped, Text: notNeeded(need.Tracks, "offers the model no tools", "offers the model tools")})
	case info.HasModel:
		checks = append(checks, toolsCheck(cfg, info, isOllama))
	}
	if need.Think && info.HasModel {
		checks = append(checks, thinkCheck(info))
	}
	for i := range checks {
		checks[i].Host, checks[i].Model = info.Host, cfg.Model
	}
	return checks
}

func versionCheck(info model.ServerInfo, isOllama bool) Check {
	if !isOllama {
		return Check{Name: Version, Status: Pass, Text: "not reported by OpenAI-compatible servers"}
	}
	v, ok := parseVersion(info.Version)
	if !ok {
		return Check{Name: Version, Status: Pass, Text: fmt.Sprintf("Ollama %q (unrecognised; assumed recent)", info.Version)}
	}
	if older(v, minOllama) {
		return Check{Name: Version, Status: Fail, Text: fmt.Sprintf("Ollama %s is older than 0.3.0, which added tool calling", info.Version),
			Fix: "upgrade Ollama (https://ollama.com/download)"}
	}
	return Check{Name: Version, Status: Pass, Text: "Ollama " + info.Version}
}

// modelCheck says whether the server has the model; a missing one is
// worded by model.ErrModelNotFound, with the models the server has.
func modelCheck(cfg model.Config, info model.ServerInfo) Check {
	if cfg.Model == "" {
		return Check{Name: Model, Status: Fail, Text: "no model chosen", Fix: "--model " + model.DefaultModel}
	}
	if info.HasModel {
		t := cfg.Model + " is present"
		if info.Digest != "" {
			t += ", digest " + model.ShortDigest(info.Digest)
		}
		if len(info.Capabilities) > 0 {
			t += ", capabilities " + strings.Join(info.Capabilities, ", ")
		}
		if info.Weights != "" {
			t += "; weights " + model.ShortDigest(info.Weights)
		}
		return Check{Name: Model, Status: Pass, Text: t, Digest: info.Identity()}
	}
	has := "none"
	if len(info.Models) > 0 {
		has = strings.Join(info.Models, ", ")
	}
	err := &model.Error{Kind: model.ErrModelNotFound, Backend: info.Backend, Host: info.Host, Model: cfg.Model}
	return Check{Name: Model, Status: Fail, Text: fmt.Sprintf("%s (the server has: %s)", err.Error(), has), Kind: model.ErrModelNotFound}
}

// toolsCheck says whether the model supports tool calling; a model that
// does not is worded by model.ErrNoToolSupport.
func toolsCheck(cfg model.Config, info model.ServerInfo, isOllama bool) Check {
	switch {
	case !isOllama:
		return Check{Name: Tools, Status: Pass, Text: "assumed: OpenAI-compatible servers do not report tool support"}
	case info.Tools:
		return Check{Name: Tools, Status: Pass, Text: cfg.Model + " supports tool calling"}
	}
	err := &model.Error{Kind: model.ErrNoToolSupport, Backend: info.Backend, Host: info.Host, Model: cfg.Model}
	return Check{Name: Tools, Status: Fail, Text: err.Error() + " (the agent track needs it; --tracks workflow,workflow-retry does not)", Kind: model.ErrNoToolSupport}
}

// parseVersion reads "major.minor.patch", ignoring a suffix such as "-rc1".
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s, _, _ = strings.Cut(strings.TrimPrefix(s, "v"), "-")
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func older(v, min [3]int) bool {
	for i := range v {
		if v[i] != min[i] {
			return v[i] < min[i]
		}
	}
	return false
}

// thinkCheck says whether the model can think, for a run with --think; a
// model that cannot is worded by model.ErrNoThinking.
func thinkCheck(info model.ServerInfo) Check {
	if err := info.Require(true, false); err != nil {
		return Check{Name: Think, Status: Fail, Text: err.Error(), Kind: model.ErrNoThinking}
	}
	return Check{Name: Think, Status: Pass, Text: info.Model + " can think"}
}
