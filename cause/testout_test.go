package cause

import (
	"strings"
	"testing"

	"bench/tasks"
)

// TestReadUnittest reads a run with a sub-test failure, a docstring
// test, an error with a chained traceback and a pass.
func TestReadUnittest(t *testing.T) {
	out := `test_a (test_m.T.test_a) ... ok
test_b (test_m.T.test_b)
A docstring. ... FAIL
test_c (test_m.T.test_c) ... 
  test_c (test_m.T.test_c) (i=2) ... FAIL
test_d (other_test.U.test_d) ... ERROR

======================================================================
FAIL: test_b (test_m.T.test_b)
A docstring.
----------------------------------------------------------------------
Traceback (most recent call last):
  File "./test_m.py", line 9, in test_b
    self.assertEqual(f(1), 2)
AssertionError: 3 != 2

======================================================================
FAIL: test_c (test_m.T.test_c) (i=2)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "./test_m.py", line 12, in test_c
    self.assertTrue(g(i))
AssertionError: False is not true

======================================================================
ERROR: test_d (other_test.U.test_d)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "./m.py", line 4, in f
    return int(x)
           ^^^^^^
ValueError: invalid literal for int() with base 10: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "./other_test.py", line 5, in test_d
    f("x")
  File "./m.py", line 6, in f
    raise KeyError(x) from None
KeyError: 'x'

----------------------------------------------------------------------
Ran 4 tests in Xs

FAILED (failures=2, errors=1)
`
	r := readRun(out, tasks.FrameworkUnittest)
	for _, tc := range []struct {
		test, text, site, module string
		st                       status
	}{
		{"test_a", "", "", "test_m", passed},
		{"test_b", "AssertionError: 3 != 2", "test_m.py|test_b|self.assertEqual(f(1), 2)", "test_m", failed},
		{"test_c", "AssertionError: False is not true", "test_m.py|test_c|self.assertTrue(g(i))", "test_m", failed},
		{"test_d", "KeyError: 'x'", "m.py|f|raise KeyError(x) from None", "other_test", failed},
		{"test_e", "", "", "", unknown},
	} {
		st, f := r.lookup(tc.test)
		if st != tc.st {
			t.Errorf("%s: status %v, want %v", tc.test, st, tc.st)
		}
		if tc.text == "" {
			continue
		}
		if f == nil || f.text != tc.text || f.site() != tc.site {
			t.Errorf("%s: failure %+v, want %q at %q", tc.test, f, tc.text, tc.site)
		}
		if m := r.tests[tc.test].module; m != tc.module {
			t.Errorf("%s: module %q, want %q", tc.test, m, tc.module)
		}
	}
	if r.load != nil {
		t.Errorf("load failure %+v in a run whose tests all ran", r.load)
	}
}

// TestReadUnittestLoadFailures: a test module that does not import, and
// unittest crashing on a syntax error before any test; every test is then
// one that did not run.
func TestReadUnittestLoadFailures(t *testing.T) {
	r := readRun(fakeLoadError("ImportError: cannot import name 'g' from 'm' (./m.py)"), tasks.FrameworkUnittest)
	st, f := r.lookup("test_a")
	if st != notRun || f == nil || f.text != "ImportError: cannot import name 'g' from 'm' (./m.py)" || f.innermost().file != "test_m.py" {
		t.Errorf("import error: status %v, failure %+v", st, f)
	}
	crash := "Traceback (most recent call last):\n  File \"<frozen runpy>\", line 198, in _run_module_as_main\n" +
		"  File \"./test_m.py\", line 3, in <module>\n    import m\n  File \"./m.py\", line 4\n    words = re.findall(r\"[a-z]+\", text.lo\n                      ^\nSyntaxError: '(' was never closed\n"
	r = readRun(crash, tasks.FrameworkUnittest)
	st, f = r.lookup("test_a")
	if st != notRun || f == nil || f.kind != "SyntaxError" || f.innermost() != (frame{file: "m.py", line: 4, code: `words = re.findall(r"[a-z]+", text.lo`}) {
		t.Errorf("crash: status %v, failure %+v", st, f)
	}
}

// TestReadGo reads go test output: a pass, a failure with its message, a
// subtest's failure under its parent, a panic ending the binary (a test
// after it never ran), and a build failure.
func TestReadGo(t *testing.T) {
	out := `=== RUN   TestA
--- PASS: TestA (Xs)
=== RUN   TestB
    b_test.go:12: got 1, want 2
    b_test.go:13: and more
--- FAIL: TestB (Xs)
=== RUN   TestC
=== RUN   TestC/sub
    c_test.go:20: sub failed
    --- FAIL: TestC/sub (Xs)
--- FAIL: TestC (Xs)
=== RUN   TestD
--- FAIL: TestD (Xs)
panic: runtime error: index out of range [-1] [recovered]

goroutine 7 [running]:
testing.tRunner.func1.2({0x574440, 0x1eed1e99c090})
	/usr/local/go/src/testing/testing.go:1974 +0x232
stack.(*Stack).Pop(...)
	./stack.go:15
stack.TestD(0x1eed1ea26488?)
	./d_test.go:19 +0x11
FAIL	stack	Xs
`
	r := readRun(out, tasks.FrameworkGo)
	if st, _ := r.lookup("TestA"); st != passed {
		t.Errorf("TestA: %v, want passed", st)
	}
	if st, f := r.lookup("TestB"); st != failed || f.text != "b_test.go:12: got 1, want 2" || f.site() != "b_test.go||12" {
		t.Errorf("TestB: %v %+v", st, f)
	}
	if st, f := r.lookup("TestC"); st != failed || f.message != "sub failed" {
		t.Errorf("TestC: %v %+v; want its subtest's failure", st, f)
	}
	if st, f := r.lookup("TestD"); st != failed || f.kind != "panic" || f.text != "panic: runtime error: index out of range [-1]" ||
		f.innermost() != (frame{file: "stack.go", line: 15, fn: "stack.(*Stack).Pop"}) {
		t.Errorf("TestD: %v %+v", st, f)
	}
	if st, f := r.lookup("TestE"); st != notRun || f == nil || f.kind != "panic" {
		t.Errorf("TestE, after the panic: %v %+v; want not run", st, f)
	}

	build := "# shop [shop.test]\n./cart.go:10:12: invalid operation: x (mismatched types Cents and int)\n./invoice.go:7:10: undefined: Line\nFAIL\tshop [build failed]\n"
	r = readRun(build, tasks.FrameworkGo)
	st, f := r.lookup("TestTotal")
	if st != notRun || f.kind != "build" || f.text != "cart.go:10:12: invalid operation: x (mismatched types Cents and int)" || len(f.frames) != 2 || f.frames[1].file != "invoice.go" {
		t.Errorf("build failure: %v %+v", st, f)
	}
	if got := missingIn(f); len(got) != 1 || got[0] != "Line" {
		t.Errorf("names missing in the build failure: %v, want [Line]", got)
	}
}

// TestReplyContent reads what the workflows wrote from a reply, checked
// by the recorded size.
func TestReplyContent(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		fallback    bool
		want        string
		blocks      int
	}{
		{"FILE: and a block", "FILE: m.py\n```python\nx = 1\n```\n", false, "x = 1\n", 1},
		{"thinking first", "<think>FILE: other.py\n```\nno\n```</think>\nFILE: m.py\n~~~~\nx = 2\n~~~~\n", false, "x = 2\n", 1},
		{"CRLF", "FILE: m.py\r\n```\r\nx = 3\r\n```\r\n", false, "x = 3\n", 1},
		{"the fallback's first block", "Try:\n```\nx = 4\n```\nor\n```\ny\n```\n", true, "x = 4\n", 2},
		{"the fallback's whole reply", "Just add one.", true, "Just add one.", 0},
		{"FILE: without a block", "FILE: m.py\n\nx = 5\n", false, "x = 5\n", 0},
		{"an unclosed block", "FILE: m.py\n```python\nx = 6\ny = ", false, "x = 6\ny = \n", 1},
		{"a longer fence holds a shorter one", "FILE: m.py\n````\na\n```\nb\n```\n````\n", false, "a\n```\nb\n```\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, blocks, ok := replyContent(tc.reply, tc.fallback, len(tc.want))
			if !ok || got != tc.want || blocks != tc.blocks {
				t.Errorf("content %q (%d blocks, ok %v), want %q (%d blocks)", got, blocks, ok, tc.want, tc.blocks)
			}
			if _, _, ok := replyContent(tc.reply, tc.fallback, len(tc.want)+100); ok {
				t.Error("a size no reading of the reply has was accepted")
			}
		})
	}
}

// TestDefinitions lists the names a file's top-level lines define.
func TestDefinitions(t *testing.T) {
	py := "import re, os.path as p\nfrom money import (show, to_cents as tc)\nLIMIT: int = 3\nx == 1\n\n\ndef f():\n    y = 2\n\n\nclass C:\n    pass\n"
	var got []string
	for _, d := range definitions(py, tasks.FrameworkUnittest) {
		got = append(got, d.name)
	}
	if want := "re p show tc LIMIT f C"; strings.Join(got, " ") != want {
		t.Errorf("Python definitions %v, want %s", got, want)
	}
	goSrc := "package shop\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\nimport \"net/http\"\n\ntype Cents int64\n\nfunc (c Cents) String() string { return fmt.Sprint(int64(c)) }\n\nfunc Line() {}\n\nvar total = 0\n"
	got = nil
	for _, d := range definitions(goSrc, tasks.FrameworkGo) {
		got = append(got, d.name)
	}
	if want := "fmt str http Cents String Line total"; strings.Join(got, " ") != want {
		t.Errorf("Go definitions %v, want %s", got, want)
	}
}
