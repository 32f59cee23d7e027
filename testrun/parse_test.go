package testrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readCapture returns a real python3 -m unittest -v output saved by testdata/gen.sh.
func readCapture(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// parsed applies Parse(out) to a Result as Run does.
func parsed(out string) Result {
	var r Result
	Parse(out).apply(&r)
	return r
}

func TestParseCaptures(t *testing.T) {
	cases := []struct {
		capture       string
		total, passed int
		failed        string
		loadError     bool
	}{
		{"pass", 3, 3, "", false},
		{"failures", 4, 1, "test_div,test_div_zero,test_list", false},
		{"outcomes", 5, 3, "test_error,test_unexpected_success", false},
		{"import_error", 1, 0, "test_mod", true},
		{"syntax_error", 0, 0, "", true},
		{"syntax_error_discover", 1, 0, "test_shapes", true},
		{"docstring_subtest", 4, 3, "test_subtests", false},
		{"large", 1500, 1494, "test_case_0007,test_case_0257,test_case_0507,test_case_0757,test_case_1007,test_case_1257", false},
	}
	for _, c := range cases {
		t.Run(c.capture, func(t *testing.T) {
			r := parsed(readCapture(t, c.capture))
			if r.Total != c.total || r.Passed != c.passed {
				t.Errorf("passed/total = %d/%d, want %d/%d", r.Passed, r.Total, c.passed, c.total)
			}
			if got := strings.Join(r.Failed, ","); got != c.failed {
				t.Errorf("failed = %s, want %s", got, c.failed)
			}
			if r.LoadError != c.loadError {
				t.Errorf("LoadError = %v, want %v", r.LoadError, c.loadError)
			}
		})
	}
}

func TestParseOutcomes(t *testing.T) {
	p := Parse(readCapture(t, "outcomes"))
	want := map[string]string{
		"test_error":              Error,
		"test_expected_failure":   ExpectedFailure,
		"test_ok":                 OK,
		"test_skipped":            Skipped,
		"test_unexpected_success": UnexpectedSuccess,
	}
	if len(p.Cases) != len(want) {
		t.Fatalf("got %d cases, want %d: %+v", len(p.Cases), len(want), p.Cases)
	}
	for _, c := range p.Cases {
		if want[MethodName(c.Name)] != c.Outcome {
			t.Errorf("%s: outcome %q, want %q", c.Name, c.Outcome, want[MethodName(c.Name)])
		}
	}
	if p.Cases[0].Name != "test_error (test_outcomes.OutcomeTest.test_error)" {
		t.Errorf("case name %q", p.Cases[0].Name)
	}
	if p.Ran != 5 || !p.Summary || p.OK || p.Failures != 2 {
		t.Errorf("summary: ran %d, found %v, ok %v, failures %d", p.Ran, p.Summary, p.OK, p.Failures)
	}
}

func TestParseDocstringPrintSubtests(t *testing.T) {
	p := Parse(readCapture(t, "docstring_subtest"))
	got := map[string]string{}
	for _, c := range p.Cases {
		got[MethodName(c.Name)] = c.Outcome
	}
	want := map[string]string{"test_documented": OK, "test_prints": OK, "test_subtests": Fail, "test_subtests_pass": OK}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if len(p.Cases) != 4 {
		t.Errorf("got %d cases, want 4 (a sub-test is not a test of its own)", len(p.Cases))
	}
}

// TestParseTruncated cuts a real 90 KB output as Run's cap does: the
// per-test lines lost in the middle are recovered from the summary line.
func TestParseTruncated(t *testing.T) {
	full := readCapture(t, "large")
	b := newCapBuffer(MaxOutput)
	b.Write([]byte(full))
	out, cut := b.String()
	if cut != len(full)-MaxOutput {
		t.Fatalf("cut %d bytes, want %d", cut, len(full)-MaxOutput)
	}
	if !strings.Contains(out, "bytes of output cut here") {
		t.Fatal("no cut marker in the output")
	}
	r := parsed(out)
	if r.Total != 1500 || r.Passed != 1494 {
		t.Errorf("passed/total = %d/%d, want 1494/1500 from the summary", r.Passed, r.Total)
	}
	if len(r.Cases) >= 1500 {
		t.Errorf("got %d cases from a cut output", len(r.Cases))
	}
	// Cut before the summary: only the cases seen count, and a test whose
	// outcome was cut off is not a pass.
	head := full[:strings.Index(full, "test_case_0100")] + "test_case_0100 (test_many.ManyTest.test_case_0100) ... "
	r = parsed(head)
	if r.Total != 101 || r.Passed != 99 || strings.Join(r.Failed, ",") != "test_case_0007,test_case_0100" {
		t.Errorf("head only: passed/total = %d/%d, failed %v", r.Passed, r.Total, r.Failed)
	}
}

func TestParseNoOutput(t *testing.T) {
	r := parsed("")
	if r.Total != 0 || r.LoadError || r.AllPassed() {
		t.Errorf("empty output parsed as %+v", r)
	}
}

func BenchmarkParse(b *testing.B) {
	out := readCapture(b, "large")
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(out)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1500, "ns/case")
}
