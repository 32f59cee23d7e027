package detect

import (
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/table"
)

// TestKnownMode: the modes and their aliases are known, in any case; a
// word that would fall back to auto is not.
func TestKnownMode(t *testing.T) {
	for _, m := range []string{"auto", " AUTO ", ModeFocus, ModeOn, ModeOff} {
		if !KnownMode(m) {
			t.Errorf("%q is not known", m)
		}
	}
	for _, m := range []string{"", "nope", "autox"} {
		if KnownMode(m) {
			t.Errorf("%q is known", m)
		}
	}
}

// TestWriteReplay: the CSV holds the table alone, one row per case with
// dashes for what is absent; text adds each case's name after the table.
func TestWriteReplay(t *testing.T) {
	results := []CaseResult{{Case: 1, Name: "a repo", Decision: Decision{Platform: "cli", Mode: "auto", NaiveProfile: "general", Profile: "coding", Guidance: true, Toolset: []string{"coding"}}}}
	var b strings.Builder
	if err := WriteReplay(&b, results, table.CSV); err != nil {
		t.Fatal(err)
	}
	if want := "case,platform,mode,naive rule,profile,guidance,snapshot,toolset,demoted\n1,cli,auto,general,coding,yes,–,coding,–\n"; b.String() != want {
		t.Errorf("csv %q\nwant %q", b.String(), want)
	}
	b.Reset()
	if err := WriteReplay(&b, results, table.Text); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\n\n1. a repo\n") {
		t.Errorf("text:\n%s", b.String())
	}
	b.Reset()
	if err := WriteReplay(&b, results, table.JSON); err != nil || !strings.HasPrefix(b.String(), "{\n  \"cases\": [") {
		t.Errorf("json %v:\n%s", err, b.String())
	}
}

// TestWriteDecision: one aligned line per field, a dash for an empty one.
func TestWriteDecision(t *testing.T) {
	var b strings.Builder
	if err := WriteDecision(&b, Decision{Dir: "/x", Mode: "auto", Platform: "cli", Profile: "general", NaiveProfile: "general"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "dir:         /x\n") || !strings.Contains(b.String(), "root:        –\n") || !strings.HasSuffix(b.String(), "demoted:     –\n") {
		t.Errorf("got:\n%s", b.String())
	}
}

// TestExpectedIn: "" is the built-in table; a missing file says so.
func TestExpectedIn(t *testing.T) {
	if want, err := ExpectedIn(""); err != nil || len(want) != len(Cases) {
		t.Errorf("built-in: %d, %v", len(want), err)
	}
	if _, err := ExpectedIn(filepath.Join(t.TempDir(), "none.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing: %v", err)
	}
}
