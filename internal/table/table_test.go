package table

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

var (
	header = []string{"Task", "Tests passed"}
	rows   = [][]string{{"slugify", "3/4"}, {"a|b", "1,2"}}
)

func write(t *testing.T, format string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, header, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestText(t *testing.T) {
	got := write(t, Text)
	want := " Task     Tests passed\n-----------------------\n slugify  3/4\n a|b      1,2\n"
	if got != want {
		t.Errorf("text table:\n%s\nwant:\n%s", got, want)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("padded line %q", l)
		}
	}
}

func TestMarkdownEscapesPipes(t *testing.T) {
	got := write(t, Markdown)
	if !strings.Contains(got, `a\|b`) || !strings.HasPrefix(got, "| Task") {
		t.Errorf("markdown:\n%s", got)
	}
}

func TestCSVAndJSONRoundTrip(t *testing.T) {
	recs, err := csv.NewReader(strings.NewReader(write(t, CSV))).ReadAll()
	if err != nil || len(recs) != 3 || recs[2][1] != "1,2" {
		t.Errorf("csv: %v %v", recs, err)
	}
	var objs []map[string]string
	if err := json.Unmarshal([]byte(write(t, JSON)), &objs); err != nil || len(objs) != 2 || objs[1]["tests_passed"] != "1,2" {
		t.Errorf("json: %v %v", objs, err)
	}
	if err := Write(&bytes.Buffer{}, "yaml", header, rows); err == nil {
		t.Error("yaml accepted")
	}
}

// TestCellsAreInert: a cell holding escape sequences, a carriage return or
// HTML is written with them escaped in every format but JSON (whose
// encoder escapes them itself).
func TestCellsAreInert(t *testing.T) {
	cell := "x\x1b[2J\r<img src=y>"
	for _, f := range []string{Text, Markdown, CSV, JSON} {
		var b strings.Builder
		if err := Write(&b, f, []string{"h\x1b"}, [][]string{{cell}}); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\r") {
			t.Errorf("%s: a control byte came through: %q", f, b.String())
		}
		if f == Markdown && strings.Contains(b.String(), "<img") {
			t.Errorf("markdown: HTML came through: %q", b.String())
		}
	}
}
