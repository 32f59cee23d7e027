// Package inert makes text that a model or a test wrote safe to print on
// a terminal or in a Markdown page: every byte that could move the cursor,
// clear the screen, change colours, reorder what is shown (bidirectional
// overrides) or start HTML markup is shown as a visible escape instead,
// such as \x1b or \u202e. Every command of bench that prints text it did
// not write itself passes it through here.
package inert

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line: control characters (newlines and tabs too),
// bytes that are not UTF-8 and invisible format characters are shown as
// Go escapes (\n, \t, \x1b, \u202e). Printable text, spaces and
// backslashes stay as they are.
func Line(s string) string { return escape(s, false, false) }

// Text returns s as lines: as Line, but newlines and tabs stay. A carriage
// return, which lets a line overwrite itself, is shown as \r.
func Text(s string) string { return escape(s, true, false) }

// Markdown returns s as one line of Markdown outside a code block: as
// Line, and every < as &lt;, so that no HTML tag (an <img onerror=…>, a
// <script>) comes in with it; the rest of Markdown's syntax stays, as a
// person would write it.
func Markdown(s string) string { return escape(s, false, true) }

// Quote returns s in double quotes with every non-printable character
// escaped (strconv.Quote): how a name that bench does not know, such as a
// tool the model made up, is shown.
func Quote(s string) string { return strconv.Quote(s) }

// Clean reports whether s has nothing Text would change.
func Clean(s string) bool { return plain(s, true, false) }

// escape returns s with what cannot be shown as it is escaped; lines keeps
// newlines and tabs, html turns < into &lt;.
func escape(s string, lines, html bool) string {
	if plain(s, lines, html) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case html && r == '<':
			b.WriteString("&lt;")
		case shown(r):
			b.WriteString(s[i : i+size])
		default:
			b.WriteString(runeEscape(r))
		}
		i += size
	}
	return b.String()
}

// plain reports whether escape would return s unchanged: printable ASCII
// (and, with lines, newlines and tabs) only, without < for html; other
// text goes the slow way.
func plain(s string, lines, html bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return plainUTF8(s[i:], lines, html)
		case c == '\n' || c == '\t':
			if !lines {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		case html && c == '<':
			return false
		}
	}
	return true
}

// plainUTF8 is plain for text that is not all ASCII.
func plainUTF8(s string, lines, html bool) bool {
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return false // a bad byte (or a real U+FFFD, which escape keeps: only the slow way tells them apart)
		case lines && (r == '\n' || r == '\t'):
		case html && r == '<':
			return false
		case !shown(r):
			return false
		}
	}
	return true
}

// shown reports whether r can be printed as it is: a printable character
// or a space (no control, format, private-use or separator character
// other than the space).
func shown(r rune) bool { return r == ' ' || unicode.IsPrint(r) }

// runeEscape is the Go escape of r: \n, \t, \r, \x1b, \u202e, \U000e0001.
func runeEscape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\r':
		return `\r`
	}
	switch {
	case r < 0x80:
		return `\x` + hex2(byte(r))
	case r <= 0xFFFF:
		return `\u` + pad(strconv.FormatInt(int64(r), 16), 4)
	}
	return `\U` + pad(strconv.FormatInt(int64(r), 16), 8)
}

// hex2 is a byte as two hex digits.
func hex2(c byte) string { return pad(strconv.FormatInt(int64(c), 16), 2) }

// pad left-pads s with zeros to n characters.
func pad(s string, n int) string { return strings.Repeat("0", max(0, n-len(s))) + s }
