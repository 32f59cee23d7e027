package record

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestVariantsAreTheProduct: a run's variants are every combination of
// its dimensions' values, the last dimension fastest, named as the
// contract spells them; a run without dimensions has the one variant "".
func TestVariantsAreTheProduct(t *testing.T) {
	if got := (Run{}).Variants(); !slices.Equal(got, []string{""}) {
		t.Errorf("no dimensions: %q", got)
	}
	r := Run{Dimensions: []Dimension{{"max-turns", []string{"5", "25"}}, {"posture", []string{"off", "on"}}}}
	want := []string{"max-turns=5 posture=off", "max-turns=5 posture=on", "max-turns=25 posture=off", "max-turns=25 posture=on"}
	if got := r.Variants(); !slices.Equal(got, want) {
		t.Errorf("variants %q, want %q", got, want)
	}
	s, err := DefaultSettings().WithVariant("max-turns=5 posture=on")
	if err != nil || s.MaxTurns != 5 || s.Posture != "on" || s.Tries != DefaultTries {
		t.Errorf("WithVariant: %+v, %v", s, err)
	}
	for _, bad := range []string{"tries=3", "max-turns", "max-turns=five", "nosuch=1"} {
		if _, err := DefaultSettings().WithVariant(bad); err == nil {
			t.Errorf("WithVariant(%q) accepted", bad)
		}
	}
}

// TestCheckDimensions: only the table's dimensions, each once, with two
// or more distinct values the setting's check accepts.
func TestCheckDimensions(t *testing.T) {
	base := DefaultSettings()
	ok := []Dimension{{"max-turns", []string{"5", "25"}}, {"posture", []string{"off", "on"}}}
	if err := CheckDimensions(ok, base); err != nil {
		t.Errorf("good dimensions refused: %v", err)
	}
	cases := map[string]struct {
		dims []Dimension
		want string
	}{
		"not a dimension": {[]Dimension{{"tries", []string{"1", "2"}}}, "--tries cannot take several values: only --max-turns and --posture"},
		"twice":           {[]Dimension{{"posture", []string{"off", "on"}}, {"posture", []string{"on", "auto"}}}, "--posture is a dimension twice"},
		"one value":       {[]Dimension{{"posture", []string{"on"}}}, "at least two values"},
		"repeated value":  {[]Dimension{{"posture", []string{"on", "off", "on"}}}, "--posture names on twice"},
		"bad value":       {[]Dimension{{"posture", []string{"off", "maybe"}}}, `unknown --posture "maybe": use off, auto or on`},
		"below minimum":   {[]Dimension{{"max-turns", []string{"5", "0"}}}, "--max-turns must be at least 1, got 0"},
		"not a number":    {[]Dimension{{"max-turns", []string{"5", "x"}}}, `bad --max-turns "x": not a whole number`},
	}
	for name, c := range cases {
		if err := CheckDimensions(c.dims, base); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TestVariantInKeyAndPath: an episode's variant is part of its key and of
// its trajectory's path, so that the variants of one task, track and seed
// are different episodes in different files; without one, both are as
// before.
func TestVariantInKeyAndPath(t *testing.T) {
	r := Run{Dimensions: []Dimension{{"posture", []string{"off", "on"}}}}
	ep := Episode{Task: "t", Track: "agent", Seed: 1, Variant: "max-turns=5 posture=on"}
	if k := ep.Key(); k != "t/agent/max-turns=5,posture=on/seed-1" {
		t.Errorf("key %q", k)
	}
	if p := TrajectoryRel(r, ep); p != filepath.Join("trajectories", "t", "agent", "max-turns=5,posture=on", "seed-1.jsonl") {
		t.Errorf("path %q", p)
	}
	ep.Variant = ""
	if k, p := ep.Key(), TrajectoryRel(Run{}, ep); k != "t/agent/seed-1" || p != filepath.Join("trajectories", "t", "agent", "seed-1.jsonl") {
		t.Errorf("without a variant: key %q, path %q", k, p)
	}
}

// TestDimensionsInRunJSON: the dimensions follow the keys of format 1 in
// run.json, and read back; Settings spells a dimension's values as given.
func TestDimensionsInRunJSON(t *testing.T) {
	r := settingsBase()
	r.Dimensions = []Dimension{{"posture", []string{"off", "on"}}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"dimensions":[{"name":"posture","values":["off","on"]}]`)) || bytes.Index(b, []byte(`"dimensions"`)) < bytes.Index(b, []byte(`"posture"`)) {
		t.Errorf("run.json %s", b)
	}
	var back Run
	if err := json.Unmarshal(b, &back); err != nil || len(back.Dimensions) != 1 || back.Dimensions[0].Values[1] != "on" {
		t.Errorf("read back %+v, %v", back.Dimensions, err)
	}
	for _, s := range r.Settings() {
		if s.Name == "posture" && s.Value != "off,on" {
			t.Errorf("Settings spells the posture dimension %q", s.Value)
		}
	}
}
