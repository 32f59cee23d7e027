package inert

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// hostile is text a model could write to repaint a terminal or a page.
const hostile = "ok\x1b[2J\x1b[H\x1b[32mALL PASSED\x1b[0m\rfake\x07\x00\x7f\u009b31m\u202egnp.exe\u2066\ufeff\xff\xfe<img src=x onerror=alert(1)>&amp;\ttab\nline"

// controlFree reports the first byte or rune of s that a terminal would
// act on, allowing newlines and tabs when lines is set.
func controlFree(s string, lines bool) (bad string, ok bool) {
	if !utf8.ValidString(s) {
		return "invalid UTF-8", false
	}
	for _, r := range s {
		switch {
		case lines && (r == '\n' || r == '\t'):
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co):
			return string(r), false
		}
	}
	return "", true
}

func TestLineLeavesNoControl(t *testing.T) {
	got := Line(hostile)
	if bad, ok := controlFree(got, false); !ok {
		t.Fatalf("Line left %q in %q", bad, got)
	}
	for _, want := range []string{`ok\x1b[2J\x1b[H\x1b[32mALL PASSED\x1b[0m\rfake\x07\x00\x7f\u009b31m\u202egnp.exe\u2066\ufeff\xff\xfe<img`, `\ttab\nline`} {
		if !strings.Contains(got, want) {
			t.Errorf("Line(hostile) = %q, lacks %q", got, want)
		}
	}
}

func TestTextKeepsLines(t *testing.T) {
	got := Text(hostile)
	if bad, ok := controlFree(got, true); !ok {
		t.Fatalf("Text left %q in %q", bad, got)
	}
	if !strings.HasSuffix(got, "\ttab\nline") || !strings.Contains(got, `\rfake`) {
		t.Errorf("Text(hostile) = %q", got)
	}
}

func TestMarkdownEscapesHTML(t *testing.T) {
	got := Markdown(hostile)
	if bad, ok := controlFree(got, false); !ok {
		t.Fatalf("Markdown left %q", bad)
	}
	if strings.Contains(got, "<") || !strings.Contains(got, "&lt;img src=x onerror=alert(1)>&amp;") {
		t.Errorf("Markdown(hostile) = %q", got)
	}
}

// TestPrintableStaysAsItIs: text people write, in any script, with
// emoji, backslashes and a real U+FFFD, is returned unchanged (and, being
// plain, without a copy).
func TestPrintableStaysAsItIs(t *testing.T) {
	for _, s := range []string{"", "parse_date agent seed-1", `C:\path\x1b is text`, "naïve café 日本語 ✓ 🙂 \ufffd", "a\tb"} {
		want := s
		if strings.Contains(s, "\t") {
			want = strings.ReplaceAll(s, "\t", `\t`)
		}
		if got := Line(s); got != want {
			t.Errorf("Line(%q) = %q", s, got)
		}
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %q", s, got)
		}
	}
	if !Clean("plain\ttext\n") || Clean("a\x1bb") || Clean("a\rb") {
		t.Error("Clean is wrong")
	}
}

func TestQuote(t *testing.T) {
	if got := Quote("\x1b[2Jrun_tests"); got != `"\x1b[2Jrun_tests"` {
		t.Errorf("Quote = %s", got)
	}
}

// FuzzLine: nothing Line, Text or Markdown returns holds a control
// character, and printable ASCII comes back as it went in.
func FuzzLine(f *testing.F) {
	f.Add(hostile)
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		for name, got := range map[string]string{"Line": Line(s), "Markdown": Markdown(s)} {
			if bad, ok := controlFree(got, false); !ok {
				t.Fatalf("%s(%q) left %q", name, s, bad)
			}
		}
		if bad, ok := controlFree(Text(s), true); !ok {
			t.Fatalf("Text(%q) left %q", s, bad)
		}
		if strings.Contains(Markdown(s), "<") {
			t.Fatalf("Markdown(%q) left markup", s)
		}
	})
}
