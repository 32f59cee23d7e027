package testrun

import (
	"regexp"
	"strconv"
	"strings"
)

// Parsed is what Parse finds in the output of python3 -m unittest -v.
type Parsed struct {
	Cases     []Case
	Ran       int  // the "Ran N tests" count; -1 when the line is missing
	Summary   bool // the final "OK" or "FAILED (...)" line was found
	OK        bool // the summary said OK
	Failures  int  // failures + errors + unexpected successes, from the summary
	LoadError bool // a test module failed to import (unittest.loader._FailedTest), or unittest crashed before running any test
}

var (
	// caseLine matches "name (qualified) ... outcome", the outcome possibly
	// empty, and the sub-test form "  name (qualified) (i=1) ... FAIL".
	caseLine = regexp.MustCompile(`^(\s*)(\w+) \(([\w.]+)\)( \(.*\))?(?: \.\.\. ?(.*))?$`)
	// outcomeAfter matches the docstring form's second line "Doc. ... ok".
	outcomeAfter = regexp.MustCompile(`^.* \.\.\. ?(.*)$`)
	ranCount     = regexp.MustCompile(`^Ran (\d+) tests? in `)
	summaryLine  = regexp.MustCompile(`^(OK|FAILED)(?: \((.*)\))?$`)
	summaryPart  = regexp.MustCompile(`(?:^|, )(failures|errors|unexpected successes)=(\d+)`)
)

// FailedTestLoader is the class unittest reports a module it could not import as.
const FailedTestLoader = "unittest.loader._FailedTest"

// Parse reads the per-test lines and the summary of unittest -v output.
func Parse(out string) Parsed {
	p := Parsed{Ran: -1}
	index := map[string]int{} // case name → index in p.Cases
	pending := -1             // a case whose outcome has not been printed yet
	details := false          // inside the failure details after the per-test lines
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := ranCount.FindStringSubmatch(line); m != nil {
			p.Ran, _ = strconv.Atoi(m[1])
			continue
		}
		if m := summaryLine.FindStringSubmatch(line); m != nil && p.Ran >= 0 {
			p.Summary, p.OK = true, m[1] == "OK"
			for _, part := range summaryPart.FindAllStringSubmatch(m[2], -1) {
				n, _ := strconv.Atoi(part[2])
				p.Failures += n
			}
			continue
		}
		if strings.HasPrefix(line, "=====") || strings.HasPrefix(line, "-----") {
			details, pending = true, -1
			continue
		}
		if details {
			continue
		}
		if m := caseLine.FindStringSubmatch(line); m != nil {
			method, qualified, sub, rest, hasDots := m[2], m[3], m[4], m[5], strings.Contains(line, " ... ") || strings.HasSuffix(line, " ...")
			name := method + " (" + qualified + ")"
			if strings.HasPrefix(qualified, FailedTestLoader) {
				p.LoadError = true
			}
			i, ok := index[name]
			if !ok {
				i = len(p.Cases)
				index[name] = i
				p.Cases = append(p.Cases, Case{Name: name})
			}
			outcome := outcomeOf(rest)
			switch {
			case sub != "": // a sub-test: only its failure is printed; it fails the test
				if outcome == Fail || outcome == Error {
					p.Cases[i].Outcome = worse(p.Cases[i].Outcome, outcome)
				}
				if pending == i {
					pending = -1
				}
			case outcome != "":
				p.Cases[i].Outcome = worse(p.Cases[i].Outcome, outcome)
				pending = -1
			case hasDots || !ok:
				pending = i
			}
			continue
		}
		if pending >= 0 {
			outcome := outcomeOf(strings.TrimSpace(line))
			if outcome == "" {
				if m := outcomeAfter.FindStringSubmatch(line); m != nil {
					outcome = outcomeOf(m[1])
				}
			}
			if outcome != "" {
				p.Cases[pending].Outcome = worse(p.Cases[pending].Outcome, outcome)
				pending = -1
			}
		}
	}
	// Named explicitly, a test module whose import raises something other
	// than ImportError (a SyntaxError in the code under test) makes unittest
	// crash with a traceback before any test runs.
	if p.Ran < 0 && len(p.Cases) == 0 && strings.Contains(out, "Traceback (most recent call last):") {
		p.LoadError = true
	}
	return p
}

// outcomeOf maps the text after " ... " to an outcome, or "".
func outcomeOf(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "ok":
		return OK
	case s == "FAIL":
		return Fail
	case s == "ERROR":
		return Error
	case s == "skipped" || strings.HasPrefix(s, "skipped "):
		return Skipped
	case s == "expected failure":
		return ExpectedFailure
	case s == "unexpected success":
		return UnexpectedSuccess
	}
	return ""
}

// worse keeps the more severe of two outcomes of the same test (a test with
// a failing sub-test stays failed).
func worse(a, b string) string {
	if a == "" || failing(b) && !failing(a) {
		return b
	}
	return a
}

// failing reports whether an outcome counts against the test.
func failing(outcome string) bool {
	return outcome == Fail || outcome == Error || outcome == UnexpectedSuccess
}

// passing reports whether an outcome counts as a pass (a skip is not a failure).
func passing(outcome string) bool {
	return outcome == OK || outcome == Skipped || outcome == ExpectedFailure
}

// MethodName returns the test method of a case name: "test_x (m.C.test_x)" → "test_x".
func MethodName(name string) string {
	if i := strings.IndexByte(name, ' '); i >= 0 {
		return name[:i]
	}
	return name
}

// apply fills the counts of r from p. The per-test lines decide when they
// account for every test that ran; otherwise (output cut in the middle) the
// summary line's counts are used.
func (p Parsed) apply(r *Result) {
	r.Cases = p.Cases
	r.LoadError = p.LoadError
	r.Failed = nil
	passed := 0
	for _, c := range p.Cases {
		switch {
		case passing(c.Outcome):
			passed++
		default: // failed, or never finished (a timeout or a cut)
			r.Failed = append(r.Failed, MethodName(c.Name))
		}
	}
	r.Total, r.Passed = len(p.Cases), passed
	if p.Ran > len(p.Cases) {
		r.Total = p.Ran
		if p.Summary {
			r.Passed = max(0, p.Ran-p.Failures)
		}
	}
}
