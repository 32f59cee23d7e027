package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
)

// countingPaint is what a hostile model writes to repaint a terminal: clear
// the screen, home the cursor, and draw a green pass; then a bidirectional
// override and the start of HTML markup for a Markdown page.
const countingPaint = "\x1b[2J\x1b[H\x1b[32mALL 6 TESTS PASSED\x1b[0m\r\u009b1A\u202e<img src=x onerror=alert(1)>"

// countingHostileModel is a fake Ollama that puts countingPaint wherever a
// model's bytes reach: a made-up tool name, a file name, a file's content
// and the tests' output (the module prints it when imported), its last
// reply, the workflow's reply; and, for seed 2, the server's error message.
func countingHostileModel(t *testing.T) *modeltest.Server {
	source, err := os.ReadFile("../../tasks/leap_year/repo/leap.py")
	if err != nil {
		t.Fatal(err)
	}
	module := "import sys\nsys.stdout.write(" + pythonQuote(countingPaint) + ")\n" + countingPaint + "= 1\n" + string(source)
	args := func(kv ...string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	agent := []model.ToolCall{
		modeltest.Call(countingPaint, `{}`),
		modeltest.Call("write_file", args("path", countingPaint+".py", "content", countingPaint)),
		modeltest.Call("write_file", args("path", "leap.py", "content", module)),
		modeltest.Call("run_tests", `{}`),
	}
	return modeltest.NewOllama(t, modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		if seed, _ := r.Options["seed"].(float64); seed == 2 {
			return modeltest.StatusText(400, countingPaint+" the server refuses")
		}
		if len(r.Tools) == 0 {
			return modeltest.Text(countingPaint+"\nFILE: leap.py\n```python\n"+module+"```\n").WithUsage(300, 80)
		}
		k := 0
		for _, m := range r.Messages {
			if m.Role == model.RoleTool {
				k++
			}
		}
		if k < len(agent) {
			return modeltest.Calls(agent[k]).WithUsage(400, 40)
		}
		return modeltest.Text(countingPaint+" Done.").WithUsage(500, 5)
	})))
}

// pythonQuote is s as a Python string literal of escapes only.
func pythonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r < 0x80 && unicode.IsPrint(r) && r != '"' && r != '\\' {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// countingInert fails the test when out, the output of what, holds a byte
// or character a terminal acts on (anything but newlines and tabs among
// the controls, format characters such as bidirectional overrides), or,
// for Markdown, HTML markup outside a code block.
func countingInert(t *testing.T, what, out string, markdown bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: output is not UTF-8", what)
	}
	for i, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			t.Errorf("%s: %U at byte %d reaches the terminal: %q", what, r, i, out[max(0, i-40):min(len(out), i+40)])
			return
		}
	}
	if markdown {
		fenced := false
		for line := range strings.Lines(out) {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
				continue
			}
			if !fenced && strings.Contains(line, "<img") {
				t.Errorf("%s: HTML markup outside a code block: %q", what, line)
			}
		}
	}
}

// TestHostileBytesStayInert: a model that writes escape sequences, a
// bidirectional override and HTML into a tool name, a file name, a file,
// the test output, its replies and a server error repaints nothing:
// neither bench run's progress and report, nor report (text, markdown,
// csv), show, compare or check lets a control character through, Markdown
// carries no markup, and the made-up tool is shown quoted.
func TestHostileBytesStayInert(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	srv := countingHostileModel(t)
	dir := filepath.Join(t.TempDir(), "run")
	predictions := filepath.Join(t.TempDir(), "p.json")
	if _, _, err := runCLI(t, "predict", "--tasks", "leap_year", "--out", predictions, "--answer", "leap_year=yyy"); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, _ := runCLI(t, "run", "--host", srv.URL, "--tasks", "leap_year", "--tracks", "workflow,agent", "--seeds", "1,2", "--out", dir)
	countingInert(t, "bench run (stdout)", stdout, false)
	countingInert(t, "bench run (stderr)", stderr, false)
	if !strings.Contains(stdout+stderr, `\x1b[2J`) {
		t.Errorf("the hostile bytes do not show escaped in bench run's output:\n%s\n%s", stdout, stderr)
	}
	for _, args := range [][]string{
		{"report", dir}, {"report", dir, "--format", "markdown"}, {"report", dir, "--format", "csv"},
		{"show", dir}, {"show", dir, "--task", "leap_year", "--track", "agent", "--seed", "1"},
		{"show", dir, "--task", "leap_year", "--track", "agent", "--seed", "1", "--full", "--format", "markdown"},
		{"show", dir, "--task", "leap_year", "--track", "workflow", "--seed", "1", "--full"},
		{"show", dir, "--task", "leap_year", "--track", "agent", "--seed", "2"},
		{"compare", dir, dir}, {"compare", dir, dir, "--format", "markdown"}, {"compare", dir, dir, "--format", "csv"},
		{"check", "--predictions", predictions, dir}, {"check", "--predictions", predictions, dir, "--format", "markdown"},
	} {
		out, errOut, _ := runCLI(t, args...)
		what := "bench " + strings.Join(args[:1], " ") + " " + strings.Join(args[2:], " ")
		md := strings.Contains(strings.Join(args, " "), "markdown")
		countingInert(t, what+" (stdout)", out, md)
		countingInert(t, what+" (stderr)", errOut, false)
	}
	report, _, _ := runCLI(t, "report", dir)
	if !strings.Contains(report, `"\x1b[2J\x1b[H`) {
		t.Errorf("the made-up tool is not shown quoted and escaped in the tool sequences:\n%s", report)
	}
}

// TestErrorsAreInert: an error that quotes a server's or a model's bytes
// is printed with them escaped.
func TestErrorsAreInert(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if code := exitCode(fmt.Errorf("the server says %s", countingPaint), &b); code != 1 {
		t.Errorf("exit code %d", code)
	}
	countingInert(t, "the error line", b.String(), false)
	if !strings.Contains(b.String(), `bench: the server says \x1b[2J`) {
		t.Errorf("printed %q", b.String())
	}
}
