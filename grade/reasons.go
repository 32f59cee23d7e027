package grade

import (
	"fmt"
	"slices"
	"sort"
)

// Codes of the reasons for tampering (Result.Reasons, an episode's
// tamper_reasons); docs/SANDBOX.md explains each. The first group is found
// while the sealed copy is built (the pristine copy is graded instead, so
// such a run can still pass); the second in the test run itself, whose
// results then cannot be believed: it fails.
const (
	ReasonTestFileChanged = "test-file-changed" // a protected test file changed, deleted or replaced
	ReasonHarnessShadow   = "harness-shadow"    // sitecustomize.py, unittest… in the workspace
	ReasonTestShadow      = "test-shadow"       // a package or module imported in place of a test module
	ReasonBytecode        = "bytecode"          // __pycache__ or .pyc files in the workspace
	ReasonStdlibShadow    = "stdlib-shadow"     // a module named like one of the standard library

	ReasonControlPassed  = "control-passed"  // a negative control was not reported failed
	ReasonControlMissing = "control-missing" // a negative control is missing from a run that finished
	ReasonUnknownTest    = "unknown-test"    // a result for a test the sealed run does not define
	ReasonDuplicate      = "duplicate-result"
	ReasonForged         = "forged-result"   // lines on the result channel the runner did not write
	ReasonNoVerdict      = "no-verdict"      // the run exited 0 without finishing
	ReasonSkipped        = "unexpected-skip" // a test skipped that its file cannot skip
	ReasonExpectedFail   = "unexpected-xfail"
	ReasonHarnessPatched = "harness-patched" // unittest's classes replaced, or a test method not from the test files
)

// Reason is one reason for tampering: a code above and a sentence.
type Reason struct {
	Code   string
	Detail string
}

// runtimeReason reports whether code says that the test run's results
// cannot be believed (as opposed to something left out of the sealed copy).
func runtimeReason(code string) bool {
	return !slices.Contains([]string{ReasonTestFileChanged, ReasonHarnessShadow, ReasonTestShadow, ReasonBytecode, ReasonStdlibShadow}, code)
}

// flag records a reason for tampering, in Reasons and as a sentence in
// Flags. A reason already given is not given twice.
func (g *Result) flag(code, format string, args ...any) {
	g.Tampered = true
	r := Reason{Code: code, Detail: fmt.Sprintf(format, args...)}
	if slices.Contains(g.Reasons, r) {
		return
	}
	g.Reasons = append(g.Reasons, r)
	sort.SliceStable(g.Reasons, func(i, j int) bool { return g.Reasons[i].Code < g.Reasons[j].Code })
	g.note("%s", r.Detail)
}

// distrusted reports whether a reason says the run's results cannot be
// believed.
func (g *Result) distrusted() bool {
	return slices.ContainsFunc(g.Reasons, func(r Reason) bool { return runtimeReason(r.Code) })
}

// note records something left out of grading that is not tampering.
func (g *Result) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if i, found := slices.BinarySearch(g.Flags, s); !found {
		g.Flags = slices.Insert(g.Flags, i, s)
	}
}
