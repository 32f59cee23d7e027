package record

import (
	"reflect"
	"testing"
)

// TestSettingsCoverEveryModelSideField: a run field that changes what the
// model sees must change SettingsKey; bookkeeping fields must not.
func TestSettingsCoverEveryModelSideField(t *testing.T) {
	base := Run{Backend: "ollama", Model: "m", ModelDigest: "d", Temperature: 0.7, NumCtx: 8192,
		MaxTokens: 4096, Posture: "auto", MaxTurns: 25, Tries: 2, PromptsSHA256: "p"}
	changes := map[string]func(*Run){
		"backend":               func(r *Run) { r.Backend = "openai" },
		"model":                 func(r *Run) { r.Model = "n" },
		"model-digest":          func(r *Run) { r.ModelDigest = "e" },
		"temperature":           func(r *Run) { r.Temperature = 0 },
		"num-ctx":               func(r *Run) { r.NumCtx = 4096 },
		"top-p":                 func(r *Run) { r.TopP = 0.9 },
		"max-tokens":            func(r *Run) { r.MaxTokens = 1 },
		"max-reply-bytes":       func(r *Run) { r.MaxReplyBytes = 1 << 20 },
		"workspace-limit":       func(r *Run) { r.WorkspaceLimit = 1 << 20 },
		"think":                 func(r *Run) { r.Think = true },
		"posture":               func(r *Run) { r.Posture = "on" },
		"max-turns":             func(r *Run) { r.MaxTurns = 3 },
		"token-limit":           func(r *Run) { r.TokenLimit = 100 },
		"episode-timeout":       func(r *Run) { r.EpisodeTimeoutMS = 1000 },
		"tries":                 func(r *Run) { r.Tries = 1 },
		"prompts":               func(r *Run) { r.PromptsSHA256 = "q" },
		"workflow-model":        func(r *Run) { r.WorkflowModel = "editor" },
		"workflow-model-digest": func(r *Run) { r.WorkflowModelDigest = "f" },
	}
	var names []string
	for _, s := range base.Settings() {
		names = append(names, s.Name)
	}
	for name, change := range changes {
		r := base
		change(&r)
		if r.SettingsKey() == base.SettingsKey() {
			t.Errorf("changing %s leaves the settings key unchanged", name)
		}
	}
	if len(names) != len(changes) {
		t.Errorf("Settings lists %v; the test knows %d settings: add the new one to this test", names, len(changes))
	}
	same := base
	same.ID, same.BenchVersion, same.Parallel, same.Host = "other", "v2", 8, "elsewhere:1"
	if same.SettingsKey() != base.SettingsKey() {
		t.Error("bookkeeping fields (id, version, parallel, host) changed the settings key")
	}
	if !reflect.DeepEqual(base.Settings(), base.Settings()) {
		t.Error("Settings is not deterministic")
	}
}
