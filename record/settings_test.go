package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// settingsBase is a run with a value in every setting, to change one at a time.
func settingsBase() Run {
	return Run{Backend: "ollama", Model: "m", ModelDigest: "d", PromptsSHA256: "p",
		RunSettings: RunSettings{Temperature: 0.7, NumCtx: 8192, MaxTokens: 4096, Posture: "auto", MaxTurns: 25, Tries: 2}}
}

// changed is v with another value of its kind.
func changed(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.String:
		out.SetString(v.String() + "x")
	case reflect.Bool:
		out.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		out.SetInt(v.Int() + 1)
	case reflect.Float64:
		out.SetFloat(v.Float() + 0.125)
	}
	return out
}

// TestSettingsCoverEveryModelSideField: a setting of the table that defines
// the run changes SettingsKey; one that does not, and bookkeeping fields,
// do not.
func TestSettingsCoverEveryModelSideField(t *testing.T) {
	base := settingsBase()
	for _, d := range Table {
		r := base
		f := reflect.ValueOf(&r).Elem().FieldByName(d.Field)
		f.Set(changed(f))
		if got := r.SettingsKey() != base.SettingsKey(); got != d.Defines {
			t.Errorf("changing %s (defines the run: %v) changes the settings key: %v", d.Name, d.Defines, got)
		}
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

// TestSettingsNamesAsBefore: Settings lists the names that it listed
// before the table (written out here, not from the table), so footnotes
// and merged runs read as they did; in the same order but for max-turns,
// now before posture as bench run lists their flags (a variant names
// max-turns first: "max-turns=5 posture=on").
func TestSettingsNamesAsBefore(t *testing.T) {
	want := []string{"backend", "model", "model-digest", "temperature", "num-ctx", "top-p", "max-tokens",
		"max-reply-bytes", "workspace-limit", "think", "max-turns", "posture", "token-limit", "episode-timeout",
		"tries", "prompts", "workflow-model", "workflow-model-digest"}
	var got []string
	for _, s := range settingsBase().Settings() {
		got = append(got, s.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Settings lists %v, want %v", got, want)
	}
	r := settingsBase()
	r.EpisodeTimeoutMS = 90_000
	r.Models = []ModelRef{{"a", "sha256:a"}, {"b", "sha256:b"}}
	vals := map[string]string{}
	for _, s := range r.Settings() {
		vals[s.Name] = s.Value
	}
	if vals["episode-timeout"] != "1m30s" || vals["temperature"] != "0.7" || vals["model-digest"] != "sha256:a,sha256:b" || vals["think"] != "false" {
		t.Errorf("Settings spells the values %v", vals)
	}
}

// TestTableAgreesWithRunSettings: every field of RunSettings is one
// setting of the table and every setting of the table a field of Run;
// each flag made from the table has help and a check (a switch needs
// none), and a dimension defines the run. Adding a field to RunSettings
// without its entry, or an entry without its field, fails here.
func TestTableAgreesWithRunSettings(t *testing.T) {
	fields := map[string]int{}
	rt := reflect.TypeFor[RunSettings]()
	for i := range rt.NumField() {
		fields[rt.Field(i).Name] = 0
	}
	names := map[string]bool{}
	for _, d := range Table {
		if names[d.Name] {
			t.Errorf("%s is declared twice", d.Name)
		}
		names[d.Name] = true
		f, ok := reflect.TypeFor[Run]().FieldByName(d.Field)
		if !ok {
			t.Errorf("%s names the field %s, which Run lacks", d.Name, d.Field)
			continue
		}
		if _, inSettings := fields[d.Field]; inSettings != (d.Source == FromTable) {
			t.Errorf("%s: field %s in RunSettings = %v, but its source is %d", d.Name, d.Field, inSettings, d.Source)
		}
		if d.Source == FromTable {
			fields[d.Field]++
			if d.Help == "" || (d.Check == nil && f.Type.Kind() != reflect.Bool) {
				t.Errorf("%s: a flag of the table needs help and a check", d.Name)
			}
		}
		if want := strings.ReplaceAll(d.Name, "-", "_"); !strings.HasPrefix(d.Key(), want) {
			t.Errorf("%s is recorded in run.json as %q, want a key that starts %q", d.Name, d.Key(), want)
		}
		if d.Dimension && !d.Defines {
			t.Errorf("%s is a dimension but does not define the run", d.Name)
		}
		if d.Source == Recorded && (d.Help != "" || d.Default != nil || d.Dimension) {
			t.Errorf("%s is recorded, not given: no flag, no default", d.Name)
		}
	}
	for f, n := range fields {
		if n != 1 {
			t.Errorf("RunSettings.%s is in the table %d times, want once", f, n)
		}
	}
}

// TestDefaultSettings: the table's defaults, as the constants say, pass
// the checks.
func TestDefaultSettings(t *testing.T) {
	s := DefaultSettings()
	want := RunSettings{Temperature: DefaultTemperature, NumCtx: DefaultNumCtx, MaxTokens: DefaultMaxTokens, Posture: DefaultPosture,
		MaxTurns: DefaultMaxTurns, Tries: DefaultTries, Parallel: DefaultParallel, EpisodeTimeoutMS: DefaultEpisodeTimeout.Milliseconds()}
	if s != want {
		t.Errorf("DefaultSettings = %+v, want %+v", s, want)
	}
	if err := s.Check(); err != nil {
		t.Errorf("the defaults fail their checks: %v", err)
	}
}

// TestSettingsChecks: each check refuses a bad value naming its flag, and
// accepts the edge of the good ones.
func TestSettingsChecks(t *testing.T) {
	cases := map[string]struct {
		change func(*RunSettings)
		want   string
	}{
		"temperature NaN":   {func(s *RunSettings) { s.Temperature = nanF() }, "--temperature must be a finite number, got NaN"},
		"temperature < 0":   {func(s *RunSettings) { s.Temperature = -1 }, "--temperature must be 0 or more, got -1"},
		"top-p > 1":         {func(s *RunSettings) { s.TopP = 1.5 }, "--top-p must be between 0 and 1, got 1.5"},
		"max-turns 0":       {func(s *RunSettings) { s.MaxTurns = 0 }, "--max-turns must be at least 1, got 0"},
		"tries 0":           {func(s *RunSettings) { s.Tries = 0 }, "--tries must be at least 1, got 0"},
		"num-ctx 0":         {func(s *RunSettings) { s.NumCtx = 0 }, "--num-ctx must be at least 1, got 0"},
		"max-tokens < 0":    {func(s *RunSettings) { s.MaxTokens = -1 }, "--max-tokens must be 0 (the server's default) or more, got -1"},
		"token-limit < 0":   {func(s *RunSettings) { s.TokenLimit = -1 }, "--token-limit must be 0 (no limit) or more, got -1"},
		"workspace < 0":     {func(s *RunSettings) { s.WorkspaceLimit = -1 }, "--workspace-limit must be 0 (the default, 256MiB) or more, got -1"},
		"reply bytes < 0":   {func(s *RunSettings) { s.MaxReplyBytes = -1 }, "--max-reply-bytes must be 0 (the default: 4 × --max-tokens × 16 bytes: 256 KiB for 4096) or more, got -1"},
		"posture":           {func(s *RunSettings) { s.Posture = "coding" }, `unknown --posture "coding": use off, auto or on`},
		"episode timeout":   {func(s *RunSettings) { s.EpisodeTimeoutMS = 0 }, "--episode-timeout must be positive, got 0s"},
		"two workflow":      {func(s *RunSettings) { s.WorkflowModel = "a,b" }, `--workflow-model "a,b": give one model name, such as qwen3:0.6b`},
		"parallel 0":        {func(s *RunSettings) { s.Parallel = 0 }, "--parallel must be at least 1, got 0"},
		"parallel too many": {func(s *RunSettings) { s.Parallel = MaxParallel + 1 }, "--parallel must be at most 64"},
		"per host":          {func(s *RunSettings) { s.ParallelPerHost = -1 }, "--parallel-per-host must be between 0 (--parallel spread over the servers) and 64, got -1"},
	}
	for name, c := range cases {
		s := DefaultSettings()
		c.change(&s)
		err := s.Check()
		if err == nil || !bytes.HasPrefix([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
	edge := DefaultSettings()
	edge.Temperature, edge.TopP, edge.MaxTokens, edge.TokenLimit, edge.Parallel, edge.ParallelPerHost = 0, 1, 0, 0, MaxParallel, MaxParallel
	if err := edge.Check(); err != nil {
		t.Errorf("the edge of the good values is refused: %v", err)
	}
}

func nanF() float64 { z := 0.0; return z / z }

// TestRunJSONBytesUnchanged: run.json files written before the settings
// were embedded (fixtures made by the code of main d12cb97) read and write
// back to the same bytes, so identities derived from the bytes, and
// byte-comparing readers, see no change.
func TestRunJSONBytesUnchanged(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "run-format1-*.json"))
	if len(files) < 2 {
		t.Fatalf("fixtures missing: %v", files)
	}
	for _, f := range files {
		old, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r Run
		if err := json.Unmarshal(old, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		again, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if again = append(again, '\n'); !bytes.Equal(again, old) {
			t.Errorf("%s is written back differently:\n%s\nwas\n%s", f, again, old)
		}
	}
}

// TestRunJSONOrderNeedsMarshalJSON is the control: without MarshalJSON's
// ordering the embedded settings move and the bytes change.
func TestRunJSONOrderNeedsMarshalJSON(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "run-format1-every-field.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Run
	if err := json.Unmarshal(old, &r); err != nil {
		t.Fatal(err)
	}
	type plain Run
	b, _ := json.MarshalIndent(plain(r), "", "  ")
	if bytes.Equal(append(b, '\n'), old) {
		t.Error("the plain struct writes the old order: MarshalJSON's ordering is not what keeps it")
	}
	if r.EpisodeTimeout() != 10*time.Minute || r.Posture != "on" || r.WorkspaceLimit != 1<<30 {
		t.Errorf("the embedded settings read back as %+v", r.RunSettings)
	}
}
