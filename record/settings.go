package record

import (
	"strconv"
	"strings"
	"time"
)

// Setting is one run setting as a person reads it: the flag's name and its
// value.
type Setting struct{ Name, Value string }

// Settings lists what decides the model's side of an episode: the server's
// model and weights, the sampling options, the budgets and the prompts. Two
// episodes of the same task, track and seed whose runs agree on every
// setting are twins; merged runs that differ in one get a footnote. The
// bench version is left out: it changes with every build, and the prompts
// digest covers what a build can change in what the model sees.
func (r Run) Settings() []Setting {
	return []Setting{
		{"backend", r.Backend},
		{"model", r.Model},
		{"model-digest", r.digests()},
		{"temperature", strconv.FormatFloat(r.Temperature, 'g', -1, 64)},
		{"num-ctx", strconv.Itoa(r.NumCtx)},
		{"top-p", strconv.FormatFloat(r.TopP, 'g', -1, 64)},
		{"max-tokens", strconv.Itoa(r.MaxTokens)},
		{"max-reply-bytes", strconv.FormatInt(r.MaxReplyBytes, 10)},
		{"workspace-limit", strconv.FormatInt(r.WorkspaceLimit, 10)},
		{"think", strconv.FormatBool(r.Think)},
		{"posture", r.Posture},
		{"max-turns", strconv.Itoa(r.MaxTurns)},
		{"token-limit", strconv.Itoa(r.TokenLimit)},
		{"episode-timeout", (time.Duration(r.EpisodeTimeoutMS) * time.Millisecond).String()},
		{"tries", strconv.Itoa(r.Tries)},
		{"prompts", r.PromptsSHA256},
		{"workflow-model", r.WorkflowModel},
		{"workflow-model-digest", r.WorkflowModelDigest},
	}
}

// SettingsKey joins Settings into one comparable string.
func (r Run) SettingsKey() string {
	var b []byte
	for _, s := range r.Settings() {
		b = strconv.AppendQuote(append(b, s.Name...), s.Value)
		b = append(b, ' ')
	}
	return string(b)
}

// digests is the model digest, or those of several models joined by commas.
func (r Run) digests() string {
	if !r.SeveralModels() {
		return r.ModelDigest
	}
	ds := make([]string, len(r.Models))
	for i, m := range r.Models {
		ds[i] = m.Digest
	}
	return strings.Join(ds, ",")
}
