package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"bench/internal/words"
	"bench/trackfacts"
)

// arg is one argument of a tool call, in the order the model wrote it.
type arg struct {
	name  string
	str   string // the value, when it is a JSON string
	isStr bool
	raw   string // the value's JSON text otherwise
}

// parseArgs decodes a tool call's raw JSON arguments, keeping their order;
// ok is false when they are not a JSON object.
func parseArgs(raw string) (args []arg, ok bool) {
	if strings.TrimSpace(raw) == "" {
		return nil, true
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		a := arg{name: name}
		if err := json.Unmarshal(v, &a.str); err == nil {
			a.isStr = true
		} else {
			var buf bytes.Buffer
			if json.Compact(&buf, v) == nil {
				a.raw = buf.String()
			} else {
				a.raw = string(v)
			}
		}
		args = append(args, a)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	return args, true
}

// inlineLimit is the longest string argument shown inside a call's
// parentheses; longer or multi-line ones are shown as blocks below it.
const inlineLimit = 60

// longArg is a string argument too long to show inline.
type longArg struct{ name, text string }

// formatCall prints a tool call as name(key="value", …). String arguments
// longer than inlineLimit or spanning lines appear as key=… and are
// returned to be shown as blocks. Arguments that are not a JSON object are
// shown raw, marked as malformed.
func formatCall(name, raw string) (call string, long []longArg) {
	args, ok := parseArgs(raw)
	if !ok {
		return fmt.Sprintf("%s(%s)  [malformed arguments]", name, strings.TrimSpace(raw)), nil
	}
	parts := make([]string, len(args))
	for i, a := range args {
		switch {
		case !a.isStr:
			parts[i] = a.name + "=" + a.raw
		case strings.Contains(strings.TrimSuffix(a.str, "\n"), "\n") || len([]rune(a.str)) > inlineLimit:
			parts[i] = a.name + "=…"
			long = append(long, longArg{a.name, a.str})
		default:
			parts[i] = a.name + "=" + strconv.Quote(a.str)
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")", long
}

// compactLimit is the longest argument shown in a diff line.
const compactLimit = 18

// compactCall prints a tool call on one short line: its argument values
// without their names, each cut to compactLimit characters.
func compactCall(name, raw string) string {
	name = trackfacts.ToolLabel(name)
	args, ok := parseArgs(raw)
	if !ok {
		return name + "(" + clip(strings.TrimSpace(raw), compactLimit) + ") [malformed]"
	}
	parts := make([]string, len(args))
	for i, a := range args {
		if a.isStr {
			parts[i] = strconv.Quote(clip(a.str, compactLimit))
		} else {
			parts[i] = clip(a.raw, compactLimit)
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// clip cuts s to n characters, marking the cut with "…", and shows line
// breaks as ⏎ so the result stays on one line.
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// lines words a count of lines.
func lines(n int) string { return words.Plural(n, "line") }

// lineCount counts the lines of text (a final newline ends the last line).
func lineCount(text string) int {
	if text == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}
