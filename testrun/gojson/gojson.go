// Package gojson reads the output of "go test -json" into per-test
// outcomes, the way testrun reads "python3 -m unittest -v": how many tests
// passed, how many there were and which failed. A package that does not
// build counts every expected test as failed, as an import error does for
// a Python test module.
package gojson

import (
	"bufio"
	"encoding/json"
	"sort"
	"strings"
)

// Event is one line of "go test -json" (see "go doc test2json").
type Event struct {
	Action      string  // start, run, pause, cont, pass, fail, skip, output, bench, build-output, build-fail
	Package     string  // the package's import path
	ImportPath  string  // for build-output and build-fail: the package being built
	Test        string  // the test's name, "TestX/sub" for a subtest; empty for a package event
	Output      string  // for output and build-output: one piece of text
	Elapsed     float64 // seconds, for pass, fail and skip
	FailedBuild string  // on a package's fail event: the package whose build failed
}

// Outcomes of a test.
const (
	Pass = "pass"
	Fail = "fail"
	Skip = "skip"
)

// Result is what Parse finds in the output of "go test -json".
type Result struct {
	Outcomes    map[string]string // top-level test name → Pass, Fail or Skip, for the tests that reported one
	Passed      int               // expected or reported tests that passed or were skipped
	Total       int               // the expected tests and any other reported top-level test
	Failed      []string          // tests that failed or never reported an outcome, sorted
	BuildFailed bool              // a package or its tests did not compile
	Text        string            // the human-readable output: every Output field in order, and any line that is not JSON
}

// Parse reads the events of "go test -json" output. expected names the
// top-level tests that should run (see FuncNames); one that reports no
// outcome (its package failed to build, or an earlier test panicked and
// ended the test binary) counts as failed. Subtests are not counted: their
// parent's outcome covers them. A test name that occurs in two packages is
// one test, failed if either failed. Lines that are not JSON events (go's
// own errors on stderr) go into Text.
func Parse(out string, expected []string) Result {
	r := Result{Outcomes: map[string]string{}}
	var text strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		var e Event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil || e.Action == "" {
			text.WriteString(line + "\n")
			continue
		}
		text.WriteString(e.Output)
		r.record(e)
	}
	r.Text = text.String()
	r.count(expected)
	return r
}

// record notes what one event says about a test or a build.
func (r *Result) record(e Event) {
	switch {
	case e.Action == "build-fail" || e.Action == Fail && e.FailedBuild != "":
		r.BuildFailed = true
	case e.Test == "" || strings.Contains(e.Test, "/"):
	case e.Action == Pass || e.Action == Skip:
		if r.Outcomes[e.Test] != Fail {
			r.Outcomes[e.Test] = e.Action
		}
	case e.Action == Fail:
		r.Outcomes[e.Test] = Fail
	}
}

// count totals the outcomes against the expected tests.
func (r *Result) count(expected []string) {
	names := map[string]bool{}
	for _, n := range expected {
		names[n] = true
	}
	for n := range r.Outcomes {
		names[n] = true
	}
	r.Failed = []string{}
	for n := range names {
		switch r.Outcomes[n] {
		case Pass, Skip:
			r.Passed++
		default:
			r.Failed = append(r.Failed, n)
		}
	}
	r.Total = len(names)
	sort.Strings(r.Failed)
}
