package record

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults of the run settings, which the table (Table) gives the flags
// and every package that needs a default reads.
const (
	DefaultTemperature    = 0.7 // low enough for mostly stable code, high enough that seeds matter
	DefaultNumCtx         = 8192
	DefaultMaxTokens      = 4096 // cap on one reply: without one, Ollama lets a looping model generate until the call times out
	DefaultMaxTurns       = 25
	DefaultTries          = 2
	DefaultPosture        = PostureOff
	DefaultParallel       = 1
	MaxParallel           = 64 // more episodes at once than any machine bench targets runs well
	DefaultEpisodeTimeout = 10 * time.Minute
	// DefaultWorkspaceLimit is how much an episode's workspace may hold, in
	// bytes, and still be graded; run.json records it as 0.
	DefaultWorkspaceLimit = 256 << 20
)

// defaultWorkspaceLimit is DefaultWorkspaceLimit as --workspace-limit spells it.
var defaultWorkspaceLimit = fmt.Sprintf("%dMiB", DefaultWorkspaceLimit>>20)

// Backends of --backend: the model server protocols bench speaks (package
// model's clients).
const (
	BackendOllama = "ollama"
	BackendOpenAI = "openai"
)

// The default reply cap (--max-reply-bytes 0), which package model
// applies: ReplyCapTokensFactor × the reply's token cap × BytesPerToken.
const (
	// BytesPerToken is the generous number of bytes one token of a reply
	// is allowed: text averages about 4, and a long token of whitespace
	// or an escape sequence takes more.
	BytesPerToken = 16
	// ReplyCapTokensFactor is how many times the reply's token cap the
	// default cap allows, so that an honest reply is never cut by bench.
	ReplyCapTokensFactor = 4
)

// defaultReplyCap says the default reply cap in --max-reply-bytes' words.
var defaultReplyCap = fmt.Sprintf("%d × --max-tokens × %d bytes: %d KiB for %d", ReplyCapTokensFactor, BytesPerToken, ReplyCapTokensFactor*BytesPerToken*DefaultMaxTokens>>10, DefaultMaxTokens)

// Values of --posture.
const (
	PostureOff  = "off"
	PostureAuto = "auto"
	PostureOn   = "on"
)

// RunSettings are the values of the run settings that the table declares
// and a run.json records: Spec, Run, the runner's Config and a track's
// Env embed it, so that a setting has one name everywhere. Its fields are
// listed once each in Table (a test checks both by reflection).
type RunSettings struct {
	Temperature float64 `json:"temperature"`
	NumCtx      int     `json:"num_ctx"`
	TopP        float64 `json:"top_p,omitempty"`
	MaxTokens   int     `json:"max_tokens,omitempty"` // cap on one reply (--max-tokens; Ollama num_predict, OpenAI max_tokens)
	Think       bool    `json:"think"`
	Posture     string  `json:"posture"`
	MaxTurns    int     `json:"max_turns"`
	TokenLimit  int     `json:"token_limit"` // the agent's token budget per episode (--token-limit); 0 = none
	Tries       int     `json:"tries"`
	Parallel    int     `json:"parallel"`
	// EpisodeTimeoutMS is the wall-clock limit of one episode
	// (--episode-timeout) in milliseconds; 0 = none.
	EpisodeTimeoutMS int64 `json:"episode_timeout_ms,omitempty"`
	// ParallelPerHost is how many episodes one server takes at once.
	ParallelPerHost int `json:"parallel_per_host,omitempty"`
	// WorkflowModel is the model the hybrid track's run_workflow asks
	// (--workflow-model); "" = the episode's own model.
	WorkflowModel string `json:"workflow_model,omitempty"`
	// MaxReplyBytes is --max-reply-bytes: the cap on one reply's bytes
	// (text, thinking, tool calls) that bench reads; 0 = the default, 4 ×
	// MaxTokens (or NumCtx) × 16 bytes.
	MaxReplyBytes int64 `json:"max_reply_bytes,omitempty"`
	// WorkspaceLimit is --workspace-limit: the most an episode's workspace
	// may hold and still be graded, in bytes; 0 = the default, 256 MiB.
	WorkspaceLimit int64 `json:"workspace_limit,omitempty"`
}

// EpisodeTimeout is EpisodeTimeoutMS as a duration; 0 = none.
func (s RunSettings) EpisodeTimeout() time.Duration {
	return time.Duration(s.EpisodeTimeoutMS) * time.Millisecond
}

// Unit says how a setting's flag spells a value that its field holds in
// another unit.
type Unit int

// Units of Def.Unit.
const (
	UnitNone   Unit = iota // the field holds what the flag reads
	UnitMillis             // a duration flag (10m) held as milliseconds
	UnitBytes              // a size flag (256MiB) held as bytes
)

// Source says where a setting's value comes from.
type Source int

// Sources of Def.Source.
const (
	FromTable      Source = iota // a flag of bench run made from the table, a RunSettings field
	FromModelFlags               // one of the model server's flags that doctor shares (--backend, --model)
	Recorded                     // no flag: the run records it (a digest)
)

// Def declares one run setting, once: its flag, its default, its check,
// whether it defines the run, its run.json field and its help. The flags
// of bench run, Run.Settings, the resume check and the spec's validation
// are all made from Table.
type Def struct {
	Name   string // the flag's name, and the name Run.Settings lists
	Field  string // the Run field that holds it (RunSettings' for FromTable); its json tag is run.json's key
	Source Source
	Unit   Unit
	// Default is the flag's default, typed as the field (a time.Duration
	// for UnitMillis); nil is the zero value.
	Default any
	// Shown is the default as the flag spells it, when that is not the
	// field's zero value: a size whose default is recorded as 0.
	Shown string
	Help  string
	// Defines says the setting defines the run: run.json records it,
	// --resume refuses a new value, twins must agree on it
	// (Run.Settings lists it). The others only say how to run it.
	Defines bool
	// Dimension says several comma-separated values make the setting a
	// dimension of the plan (--posture off,on), as --model a,b does.
	Dimension bool
	// Check refuses a value a run cannot be made with, in words naming
	// the flag; nil accepts every value (another check covers it).
	Check func(name string, v any) error
	// Value is how Run.Settings prints the setting when the field alone
	// does not say it; nil prints the field.
	Value func(Run) string
}

// Table is every run setting, in the order bench run lists their flags,
// Run.Settings lists them, the checks run and a run's dimensions are
// named (Run.Dimensions).
var Table = []Def{
	{Name: "backend", Field: "Backend", Source: FromModelFlags, Defines: true, Check: oneOf(BackendOllama, BackendOpenAI),
		Help: "model server protocol: ollama or openai (mlx_lm.server, llama.cpp, vLLM)"},
	{Name: "model", Field: "Model", Source: FromModelFlags, Defines: true, Help: "model name as the server knows it"},
	{Name: "model-digest", Field: "ModelDigest", Source: Recorded, Defines: true, Value: Run.digests},
	{Name: "temperature", Field: "Temperature", Default: DefaultTemperature, Defines: true, Check: temperature,
		Help: "sampling temperature"},
	{Name: "num-ctx", Field: "NumCtx", Default: DefaultNumCtx, Defines: true, Check: atLeast(1, "at least 1"),
		Help: "context window sent with every request"},
	{Name: "top-p", Field: "TopP", Defines: true, Check: topP,
		Help: "nucleus sampling; 0 leaves the server's default"},
	{Name: "max-tokens", Field: "MaxTokens", Default: DefaultMaxTokens, Defines: true, Check: atLeast(0, "0 (the server's default) or more"),
		Help: "cap on one reply's tokens, sent with every request as num_predict / max_tokens (0 = the server's default, unlimited on Ollama)"},
	{Name: "max-reply-bytes", Field: "MaxReplyBytes", Defines: true, Check: atLeast(0, "0 (the default: "+defaultReplyCap+") or more"),
		Help: "cap on the bytes of one reply bench reads (text, thinking, tool calls); a reply past it is the model's failure, reply_too_large (0 = " + defaultReplyCap + ")"},
	{Name: "workspace-limit", Field: "WorkspaceLimit", Unit: UnitBytes, Shown: defaultWorkspaceLimit, Defines: true, Check: atLeast(0, "0 (the default, "+defaultWorkspaceLimit+") or more"),
		Help: "the most an episode's workspace may hold (its files' sizes, sparse or not) and still be graded; over it the episode fails, saying why"},
	{Name: "think", Field: "Think", Defines: true, Help: "let thinking models think"},
	{Name: "max-turns", Field: "MaxTurns", Default: DefaultMaxTurns, Defines: true, Dimension: true, Check: atLeast(1, "at least 1"),
		Help: "agent: model turns before the final call without tools; several (5,25) make it a dimension of the plan"},
	{Name: "posture", Field: "Posture", Default: DefaultPosture, Defines: true, Dimension: true, Check: oneOf(PostureOff, PostureAuto, PostureOn),
		Help: "coding guidance and workspace snapshot for the agent: off, auto (ask the detector) or on; several (off,on) make it a dimension of the plan"},
	{Name: "token-limit", Field: "TokenLimit", Defines: true, Check: atLeast(0, "0 (no limit) or more"),
		Help: "agent: token budget per episode (0 = none)"},
	{Name: "episode-timeout", Field: "EpisodeTimeoutMS", Unit: UnitMillis, Default: DefaultEpisodeTimeout, Defines: true, Check: positive,
		Help: "wall-clock limit of one episode; one that reaches it ends with exit reason timeout and does not pass"},
	{Name: "tries", Field: "Tries", Default: DefaultTries, Defines: true, Check: atLeast(1, "at least 1"),
		Help: "workflow-retry: attempts"},
	{Name: "prompts", Field: "PromptsSHA256", Source: Recorded, Defines: true},
	{Name: "workflow-model", Field: "WorkflowModel", Defines: true, Check: oneModel,
		Help: "hybrid: the model run_workflow asks, on the same servers (default: the episode's model)"},
	{Name: "workflow-model-digest", Field: "WorkflowModelDigest", Source: Recorded, Defines: true},
	{Name: "parallel", Field: "Parallel", Default: DefaultParallel, Check: parallel,
		Help: fmt.Sprintf("episodes run at once (at most %d)", MaxParallel)},
	{Name: "parallel-per-host", Field: "ParallelPerHost", Check: perHost,
		Help: "episodes one model server takes at once (default: --parallel spread over the --host servers, at least 1)"},
}

// Lookup is the Def of the setting named name.
func Lookup(name string) (Def, bool) {
	i := slices.IndexFunc(Table, func(d Def) bool { return d.Name == name })
	if i < 0 {
		return Def{}, false
	}
	return Table[i], true
}

// Setting is one run setting as a person reads it: the flag's name and its
// value.
type Setting struct{ Name, Value string }

// Settings lists what decides the model's side of an episode, the settings
// of Table that define the run: the server's model and weights, the
// sampling options, the budgets and the prompts. Two episodes of the same
// task, track and seed whose runs agree on every setting are twins; merged
// runs that differ in one get a footnote. The bench version is left out:
// it changes with every build, and the prompts digest covers what a build
// can change in what the model sees.
func (r Run) Settings() []Setting {
	out := make([]Setting, 0, len(Table))
	v := reflect.ValueOf(r)
	for _, d := range Table {
		if !d.Defines {
			continue
		}
		s := Setting{Name: d.Name}
		if i := slices.IndexFunc(r.Dimensions, func(dim Dimension) bool { return dim.Name == d.Name }); i >= 0 {
			s.Value = strings.Join(r.Dimensions[i].Values, ",") // the values, as the flag took them
		} else if d.Value != nil {
			s.Value = d.Value(r)
		} else {
			s.Value = d.Format(v.FieldByName(d.Field).Interface())
		}
		out = append(out, s)
	}
	return out
}

// Format spells a value of the setting's field as Run.Settings prints it.
func (d Def) Format(v any) string {
	if d.Unit == UnitMillis {
		return (time.Duration(v.(int64)) * time.Millisecond).String()
	}
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return strconv.FormatInt(reflect.ValueOf(v).Int(), 10)
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

// DefaultSettings are the settings with every default of Table.
func DefaultSettings() RunSettings {
	var s RunSettings
	v := reflect.ValueOf(&s).Elem()
	for _, d := range Table {
		if d.Source != FromTable || d.Default == nil {
			continue
		}
		def := d.Default
		if d.Unit == UnitMillis {
			def = def.(time.Duration).Milliseconds()
		}
		f := v.FieldByName(d.Field)
		f.Set(reflect.ValueOf(def).Convert(f.Type()))
	}
	return s
}

// Check reports the first of the settings that a run cannot be made with,
// in Table's order, in words naming its flag.
func (s RunSettings) Check() error {
	v := reflect.ValueOf(s)
	for _, d := range Table {
		if d.Source != FromTable || d.Check == nil {
			continue
		}
		if err := d.Check(d.Name, d.Typed(v.FieldByName(d.Field).Interface())); err != nil {
			return err
		}
	}
	return nil
}

// Key is the setting's key in run.json: its field's json tag.
func (d Def) Key() string {
	f, _ := reflect.TypeFor[Run]().FieldByName(d.Field)
	return strings.Split(f.Tag.Get("json"), ",")[0]
}

// Typed is a field's value as the setting's flag reads it: a duration for
// UnitMillis, the field's value otherwise.
func (d Def) Typed(v any) any {
	if d.Unit == UnitMillis {
		return time.Duration(v.(int64)) * time.Millisecond
	}
	return v
}

// Set stores v, a value as the setting's flag reads it (Typed), in the
// setting's field of s.
func (d Def) Set(s *RunSettings, v any) {
	if d.Unit == UnitMillis {
		v = v.(time.Duration).Milliseconds()
	}
	f := reflect.ValueOf(s).Elem().FieldByName(d.Field)
	f.Set(reflect.ValueOf(v).Convert(f.Type()))
}

// Get is the setting's value in s, as its flag reads it (Typed).
func (d Def) Get(s RunSettings) any {
	return d.Typed(reflect.ValueOf(s).FieldByName(d.Field).Interface())
}

// atLeast checks a whole number against its minimum; says is how the
// message puts the bound ("at least 1", "0 (no limit) or more").
func atLeast(minimum int64, says string) func(string, any) error {
	return func(name string, v any) error {
		if n := reflect.ValueOf(v).Int(); n < minimum {
			return fmt.Errorf("--%s must be %s, got %d", name, says, n)
		}
		return nil
	}
}

// finite checks that a float is a number.
func finite(name string, f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("--%s must be a finite number, got %g", name, f)
	}
	return nil
}

// temperature checks a sampling temperature: finite, 0 or more.
func temperature(name string, v any) error {
	f := v.(float64)
	if err := finite(name, f); err != nil {
		return err
	}
	if f < 0 {
		return fmt.Errorf("--%s must be 0 or more, got %g", name, f)
	}
	return nil
}

// topP checks nucleus sampling: finite, between 0 and 1.
func topP(name string, v any) error {
	f := v.(float64)
	if err := finite(name, f); err != nil {
		return err
	}
	if f < 0 || f > 1 {
		return fmt.Errorf("--%s must be between 0 and 1, got %g", name, f)
	}
	return nil
}

// positive checks a duration is more than 0 (CheckPositive).
func positive(name string, v any) error { return CheckPositive(name, v.(time.Duration)) }

// CheckPositive refuses a duration, of the flag --name, of 0 or less.
func CheckPositive(name string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("--%s must be positive, got %s", name, d)
	}
	return nil
}

// oneOf checks a word against the values it may take.
func oneOf(values ...string) func(string, any) error {
	said := strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
	return func(name string, v any) error {
		if !slices.Contains(values, v.(string)) {
			return fmt.Errorf("unknown --%s %q: use %s", name, v, said)
		}
		return nil
	}
}

// oneModel checks a single model name ("" = none).
func oneModel(name string, v any) error {
	if m := v.(string); strings.Contains(m, ",") || strings.TrimSpace(m) != m {
		return fmt.Errorf("--%s %q: give one model name, such as qwen3:0.6b", name, m)
	}
	return nil
}

// parallel checks a number of episodes to run at once.
func parallel(name string, v any) error {
	switch n := v.(int); {
	case n < 1:
		return fmt.Errorf("--%s must be at least 1, got %d", name, n)
	case n > MaxParallel:
		return fmt.Errorf("--%s must be at most %d, got %d: more episodes at once only compete for the same cores and the same model server", name, MaxParallel, n)
	}
	return nil
}

// perHost checks the episodes one server takes at once (0 = spread --parallel).
func perHost(name string, v any) error {
	if n := v.(int); n < 0 || n > MaxParallel {
		return fmt.Errorf("--%s must be between 0 (--parallel spread over the servers) and %d, got %d", name, MaxParallel, n)
	}
	return nil
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
