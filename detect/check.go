package detect

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Expectation is one row of the expected table: what the replay of a case
// must give.
type Expectation struct {
	Case          int      `json:"case"`
	Name          string   `json:"name"`
	Platform      string   `json:"platform"`
	Mode          string   `json:"mode"`
	NaiveProfile  string   `json:"naive_profile"`
	Profile       string   `json:"profile"`
	Guidance      bool     `json:"guidance"`
	Snapshot      bool     `json:"snapshot"`       // whether there is a snapshot
	Root          string   `json:"root"`           // with placeholders
	Toolset       []string `json:"toolset"`        // null when none
	Demoted       int      `json:"demoted"`        // how many categories
	SnapshotLines []string `json:"snapshot_lines"` // lines the snapshot must hold
}

//go:embed expected.json
var expectedJSON []byte

// Expected returns the expected table kept beside the code (expected.json).
func Expected() ([]Expectation, error) {
	return ParseExpectations(expectedJSON, "detect/expected.json")
}

// ParseExpectations reads an expected table (a JSON array of Expectation)
// from data; name says where it came from in error messages.
func ParseExpectations(data []byte, name string) ([]Expectation, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var exp []Expectation
	if err := dec.Decode(&exp); err != nil {
		return nil, fmt.Errorf("%s: not an expected table (a JSON array of cases with fields case, platform, mode, naive_profile, profile, guidance, snapshot, root, toolset, demoted, snapshot_lines): %w", name, err)
	}
	seen := map[int]bool{}
	for i, e := range exp {
		if e.Case < 1 || seen[e.Case] {
			return nil, fmt.Errorf("%s: entry %d: case must be a positive number used once, got %d", name, i+1, e.Case)
		}
		seen[e.Case] = true
	}
	return exp, nil
}

// CaseDiff is how one case's replay differs from its expectation.
type CaseDiff struct {
	Case  int
	Name  string
	Lines []string // one per differing field
}

// String renders the difference as a heading line and one indented line
// per field.
func (d CaseDiff) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "case %d (%s):", d.Case, d.Name)
	for _, l := range d.Lines {
		b.WriteString("\n  " + l)
	}
	return b.String()
}

// Check compares a replay with the expected table and returns one CaseDiff
// per case that differs, is missing or is unexpected; none means a match.
func Check(got []CaseResult, want []Expectation) []CaseDiff {
	byCase := map[int]CaseResult{}
	for _, r := range got {
		byCase[r.Case] = r
	}
	var diffs []CaseDiff
	for _, w := range want {
		r, ok := byCase[w.Case]
		if !ok {
			diffs = append(diffs, CaseDiff{w.Case, w.Name, []string{"missing from the replay"}})
			continue
		}
		delete(byCase, w.Case)
		if lines := compare(r, w); len(lines) > 0 {
			diffs = append(diffs, CaseDiff{r.Case, r.Name, lines})
		}
	}
	for _, r := range got {
		if _, extra := byCase[r.Case]; extra {
			diffs = append(diffs, CaseDiff{r.Case, r.Name, []string{"not in the expected table"}})
		}
	}
	return diffs
}

// compare lists the fields of r that differ from w.
func compare(r CaseResult, w Expectation) []string {
	var lines []string
	field := func(name string, got, want any) {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			lines = append(lines, fmt.Sprintf("%s: got %v, want %v", name, show(got), show(want)))
		}
	}
	field("platform", r.Platform, w.Platform)
	field("mode", r.Mode, w.Mode)
	field("naive rule", r.NaiveProfile, w.NaiveProfile)
	field("profile", r.Profile, w.Profile)
	field("guidance", r.Guidance, w.Guidance)
	field("snapshot", r.Snapshot != "", w.Snapshot)
	field("root", r.Root, w.Root)
	field("toolset", r.Toolset, w.Toolset)
	field("demoted", len(r.Demoted), w.Demoted)
	have := strings.Split(r.Snapshot, "\n")
	for _, l := range w.SnapshotLines {
		if !slices.Contains(have, l) {
			lines = append(lines, fmt.Sprintf("snapshot: no line %q", l))
		}
	}
	return lines
}

// show makes empty values visible in a difference.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []string:
		if x == nil {
			return "none"
		}
		return "[" + strings.Join(x, " ") + "]"
	}
	return fmt.Sprint(v)
}

// WriteCheck compares the replay's results with the expected table in
// file (the built-in one when file is "") and writes to w the one line of
// a match, or each case that differs; it returns how many differ of how
// many expected.
func WriteCheck(w io.Writer, results []CaseResult, file string) (differ, expected int, err error) {
	want, err := ExpectedIn(file)
	if err != nil {
		return 0, 0, err
	}
	diffs := Check(results, want)
	if len(diffs) == 0 {
		_, err := fmt.Fprintf(w, "detect: all %d cases match the expected table\n", len(want))
		return 0, len(want), err
	}
	for _, d := range diffs {
		if _, err := fmt.Fprintln(w, d); err != nil {
			return 0, 0, err
		}
	}
	return len(diffs), len(want), nil
}
