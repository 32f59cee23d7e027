package gojson

import (
	"encoding/json"
	"regexp"
	"strings"
)

// marker starts the framing lines of a test binary run with
// -test.v=test2json (the testing package's ^V).
const marker = "\x16"

var (
	runLine    = regexp.MustCompile(`^=== (RUN|PAUSE|CONT|NAME) +(\S*)\s*$`)
	resultLine = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)
)

// Frame turns the output of one test binary run with -test.v=test2json
// (or -test.v, whose framing lines have no marker) into the events "go
// test -json" would have printed for package pkg, one JSON line each, for
// Parse to read: a run, output and outcome event per test, every other
// line as output of the test it belongs to. A test binary's output is the
// code under test's to write: the events say what it printed, nothing more.
func Frame(out, pkg string) string {
	framed := strings.Contains(out, marker)
	var b strings.Builder
	emit := func(e Event) {
		e.Package = pkg
		line, _ := json.Marshal(e)
		b.Write(line)
		b.WriteByte('\n')
	}
	current := ""
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		text := strings.TrimSuffix(line, "\n")
		frame, isFrame := strings.CutPrefix(text, marker)
		if !framed {
			frame, isFrame = text, true
		}
		if isFrame {
			if m := runLine.FindStringSubmatch(frame); m != nil {
				current = m[2]
				if m[1] == "RUN" {
					emit(Event{Action: "run", Test: current})
				}
				if m[1] != "NAME" {
					emit(Event{Action: "output", Test: current, Output: frame + "\n"})
				}
				continue
			}
			if m := resultLine.FindStringSubmatch(frame); m != nil {
				emit(Event{Action: "output", Test: m[2], Output: frame + "\n"})
				emit(Event{Action: strings.ToLower(m[1]), Test: m[2]})
				continue
			}
			if frame == "PASS" || frame == "FAIL" {
				current = ""
				emit(Event{Action: "output", Output: frame + "\n"})
				continue
			}
		}
		emit(Event{Action: "output", Test: current, Output: strings.TrimPrefix(line, marker)})
	}
	return b.String()
}
