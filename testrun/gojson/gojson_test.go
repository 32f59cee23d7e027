package gojson

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// readRecorded returns a recorded "go test -json" output from testdata/.
func readRecorded(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestParseRecorded(t *testing.T) {
	cases := []struct {
		file        string
		expected    []string
		passed      int
		total       int
		failed      string
		buildFailed bool
		text        string
	}{
		// go_clamp's solution: every test passes.
		{"all_pass", []string{"TestClampInside", "TestClampBelow", "TestClampAbove", "TestPercent"}, 4, 4, "", false, "ok  \tclamp"},
		// go_cents's repo/: a compile error fails every expected test.
		{"build_failed", []string{"TestTotal", "TestEmptyCart", "TestLine", "TestCentsString"}, 0, 4,
			"TestCentsString TestEmptyCart TestLine TestTotal", true, "./invoice.go:7:10: invalid operation: it.Price * it.Qty (mismatched types Cents and int)"},
		// go_stack's repo/: a panic ends the test binary; the tests after it never report.
		{"panic", []string{"TestPushPop", "TestPopEmpty", "TestPeek", "TestPeekEmpty"}, 1, 4,
			"TestPeek TestPeekEmpty TestPopEmpty", false, "panic: runtime error: index out of range [-1]"},
		// go_stack's partial/: one failure.
		{"one_failure", []string{"TestPushPop", "TestPopEmpty", "TestPeek", "TestPeekEmpty"}, 3, 4,
			"TestPeek", false, "stack_test.go:30: Peek() = 1, true; want 3, true"},
		// Subtests are covered by their parent; a skipped test is not a failure.
		{"subtests", []string{"TestTable", "TestSkipped", "TestFine"}, 2, 3, "TestTable", false, "two is wrong"},
		// A test that reports but was not expected still counts.
		{"subtests", []string{"TestFine"}, 2, 3, "TestTable", false, "--- FAIL: TestTable"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := Parse(readRecorded(t, c.file), c.expected)
			if r.Passed != c.passed || r.Total != c.total || strings.Join(r.Failed, " ") != c.failed || r.BuildFailed != c.buildFailed {
				t.Errorf("passed %d/%d, failed %q, build failed %v; want %d/%d, %q, %v",
					r.Passed, r.Total, r.Failed, r.BuildFailed, c.passed, c.total, c.failed, c.buildFailed)
			}
			if !strings.Contains(r.Text, c.text) {
				t.Errorf("Text lacks %q:\n%s", c.text, r.Text)
			}
			if strings.Contains(r.Text, `"Action"`) {
				t.Error("Text holds raw JSON")
			}
		})
	}
}

func TestParseOutcomes(t *testing.T) {
	r := Parse(readRecorded(t, "subtests"), nil)
	want := map[string]string{"TestTable": Fail, "TestSkipped": Skip, "TestFine": Pass}
	if len(r.Outcomes) != len(want) {
		t.Fatalf("Outcomes = %v, want %v", r.Outcomes, want)
	}
	for name, o := range want {
		if r.Outcomes[name] != o {
			t.Errorf("Outcomes[%s] = %q, want %q", name, r.Outcomes[name], o)
		}
	}
}

func TestParseNotJSON(t *testing.T) {
	out := "go: cannot find main module, but found .git/config\n" +
		`{"Action":"pass","Package":"p","Test":"TestA"}` + "\n{broken\n"
	r := Parse(out, []string{"TestA", "TestB"})
	if r.Passed != 1 || r.Total != 2 || !slices.Equal(r.Failed, []string{"TestB"}) {
		t.Errorf("passed %d/%d, failed %v", r.Passed, r.Total, r.Failed)
	}
	if !strings.Contains(r.Text, "cannot find main module") || !strings.Contains(r.Text, "{broken") {
		t.Errorf("lines that are not events are lost:\n%s", r.Text)
	}
}

func TestParseEmpty(t *testing.T) {
	r := Parse("", []string{"TestA"})
	if r.Passed != 0 || r.Total != 1 || !slices.Equal(r.Failed, []string{"TestA"}) {
		t.Errorf("no output: passed %d/%d, failed %v; want every expected test failed", r.Passed, r.Total, r.Failed)
	}
	if r := Parse("", nil); r.Failed == nil || r.Total != 0 {
		t.Errorf("nothing expected, nothing run: %+v", r)
	}
}

// TestParseFailWins: a test name in two packages fails if either fails.
func TestParseFailWins(t *testing.T) {
	out := `{"Action":"fail","Package":"a","Test":"TestX"}
{"Action":"pass","Package":"b","Test":"TestX"}
`
	if r := Parse(out, nil); r.Passed != 0 || !slices.Equal(r.Failed, []string{"TestX"}) {
		t.Errorf("passed %d, failed %v", r.Passed, r.Failed)
	}
}

func TestFuncNames(t *testing.T) {
	src := `package p

import "testing"

func TestA(t *testing.T) {}
func Test(t *testing.T) {}
func Test_b(t *testing.T) {}
func TestÉté(t *testing.T) {}
func Testify(t *testing.T) {}
func TestHelper(t *testing.T, n int) {}
func (s suite) TestMethod(t *testing.T) {}
func BenchmarkA(b *testing.B) {}
func helper() {}
`
	got, err := FuncNames("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "TestA Test Test_b TestÉté" {
		t.Errorf("FuncNames = %v", got)
	}
	if _, err := FuncNames("bad_test.go", []byte("package p\nfunc (")); err == nil || !strings.Contains(err.Error(), "bad_test.go") {
		t.Errorf("err = %v, want a parse error naming the file", err)
	}
}

func TestTestFuncs(t *testing.T) {
	fsys := fstest.MapFS{
		"a_test.go":          {Data: []byte("package p\nfunc TestA(t *testing.T) {}\nfunc TestB(t *testing.T) {}\n")},
		"b_test.go":          {Data: []byte("package p\nfunc TestC(t *testing.T) {}\nfunc TestA(t *testing.T) {}\n")},
		"testdata/x.golden":  {Data: []byte("not Go")},
		"testdata/y_test.go": {Data: []byte("package p\nfunc TestData(t *testing.T) {}\n")},
	}
	got, err := TestFuncs(fsys, []string{"b_test.go", "a_test.go", "testdata/x.golden"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "TestC TestA TestB" {
		t.Errorf("TestFuncs = %v", got)
	}
	if _, err := TestFuncs(fsys, []string{"missing_test.go"}); err == nil || !strings.Contains(err.Error(), "missing_test.go") {
		t.Errorf("err = %v, want it to name the missing file", err)
	}
}
