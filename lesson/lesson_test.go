package lesson

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseAndString: three letters y or n read into the answers in
// question order, and written back the same; anything else is refused.
func TestParseAndString(t *testing.T) {
	for in, want := range map[string]Answers{
		"yyn":    {PointsAtEveryLine: true, OneBlindEdit: true},
		"nny":    {ContextSuffices: true},
		"Y, n Y": {PointsAtEveryLine: true, ContextSuffices: true},
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, s := range []string{"yyn", "nny", "yyy", "nnn", "yny"} {
		a, _ := Parse(s)
		if a.String() != s {
			t.Errorf("Parse(%q).String() = %q", s, a.String())
		}
	}
	for _, bad := range []string{"", "yy", "yyyy", "yxn", "true"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "three letters") {
			t.Errorf("Parse(%q): err = %v", bad, err)
		}
	}
}

// TestListOrder: List and FromList keep question order, and only three
// yeses are AllYes.
func TestListOrder(t *testing.T) {
	l := [3]bool{false, true, false}
	if a := FromList(l); !a.OneBlindEdit || a.PointsAtEveryLine || a.ContextSuffices || a.List() != l {
		t.Errorf("FromList(%v) = %+v", l, a)
	}
	if !FromList([3]bool{true, true, true}).AllYes() || FromList([3]bool{true, true, false}).AllYes() {
		t.Error("AllYes")
	}
}

// TestJSONFieldNames: the answers keep the field names of a predictions
// file written before they were declared here.
func TestJSONFieldNames(t *testing.T) {
	b, err := json.Marshal(Answers{PointsAtEveryLine: true})
	if want := `{"points_at_every_line":true,"one_blind_edit":false,"context_suffices":false}`; err != nil || string(b) != want {
		t.Errorf("got %s (%v), want %s", b, err, want)
	}
}
