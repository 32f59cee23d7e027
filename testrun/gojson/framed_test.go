package gojson

import (
	"strings"
	"testing"
)

// framedOutput is what a test binary run with -test.v=test2json prints
// for one pass, one failure with a failing subtest, a skip, output outside
// any test, and a test a panic ended before it reported.
const framedOutput = "\x16=== RUN   TestA\n\x16--- PASS: TestA (0.00s)\n\x16=== NAME  \n" +
	"\x16=== RUN   TestB\n\x16=== RUN   TestB/sub\n    b_test.go:9: sub is wrong\n\x16    --- FAIL: TestB/sub (0.00s)\n\x16--- FAIL: TestB (0.00s)\n" +
	"\x16=== RUN   TestC\n    c_test.go:3: not here\n\x16--- SKIP: TestC (0.00s)\n" +
	"init says hello\n--- PASS: TestD (0.00s)\n" +
	"\x16=== RUN   TestE\npanic: boom\n"

func TestFrameReadsTheTestBinary(t *testing.T) {
	r := Parse(Frame(framedOutput, "p"), []string{"TestA", "TestB", "TestC", "TestD", "TestE"})
	want := map[string]string{"TestA": Pass, "TestB": Fail, "TestC": Skip}
	if len(r.Outcomes) != len(want) {
		t.Errorf("outcomes %v, want %v (an unmarked --- PASS line is text)", r.Outcomes, want)
	}
	for name, o := range want {
		if r.Outcomes[name] != o {
			t.Errorf("%s: %q, want %q", name, r.Outcomes[name], o)
		}
	}
	if r.Passed != 2 || r.Total != 5 || strings.Join(r.Failed, " ") != "TestB TestD TestE" {
		t.Errorf("passed %d/%d, failed %v", r.Passed, r.Total, r.Failed)
	}
	for _, text := range []string{"b_test.go:9: sub is wrong", "init says hello", "--- PASS: TestD", "panic: boom", "--- FAIL: TestB (0.00s)"} {
		if !strings.Contains(r.Text, text) {
			t.Errorf("Text lacks %q:\n%s", text, r.Text)
		}
	}
	if strings.Contains(r.Text, "\x16") {
		t.Error("Text keeps the framing marker")
	}
}

// TestFrameWithoutMarkers reads -test.v output, whose framing lines carry
// no marker.
func TestFrameWithoutMarkers(t *testing.T) {
	r := Parse(Frame("=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n", "p"), []string{"TestA"})
	if r.Outcomes["TestA"] != Pass || r.Passed != 1 {
		t.Errorf("outcomes %v", r.Outcomes)
	}
}
