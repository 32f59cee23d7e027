package output

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatRegistries: every listed format has a writer, "md" and case
// and spaces are read as the format; an unknown format is refused with
// the command's own list (compare's never names html, which it does not
// write).
func TestFormatRegistries(t *testing.T) {
	for _, f := range append(ReportFormats, " MD ", "Markdown") {
		if err := CheckReportFormat(f); err != nil {
			t.Errorf("report %q: %v", f, err)
		}
	}
	for _, f := range append(CompareFormats, "md") {
		if _, err := CompareWriter(f); err != nil {
			t.Errorf("compare %q: %v", f, err)
		}
	}
	if err := CheckReportFormat("pdf"); err == nil || !strings.HasSuffix(err.Error(), "want one of text, markdown, csv, json, html") {
		t.Errorf("report pdf: %v", err)
	}
	if _, err := CompareWriter("html"); err == nil || !strings.HasSuffix(err.Error(), "want one of text, markdown, csv, json") {
		t.Errorf("compare html: %v", err)
	}
}

// TestWithRunsInside: a parent folder's failed read names the run
// folders it holds; a run folder's own error is kept as it is.
func TestWithRunsInside(t *testing.T) {
	parent := t.TempDir()
	for _, run := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(parent, run), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(parent, run, "run.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := errors.New("no run.json")
	want := parent + " is not a run folder, but it holds 2 run folders: " + filepath.Join(parent, "a") + ", " + filepath.Join(parent, "b")
	if got := WithRunsInside(parent, base); got.Error() != want {
		t.Errorf("got  %v\nwant %s", got, want)
	}
	if got := WithRunsInside(filepath.Join(parent, "a"), base); got != base {
		t.Errorf("a run folder: %v", got)
	}
}

// TestCheckOutFile: a file in an existing folder passes; a folder, or a
// file in a missing folder, is refused before any work.
func TestCheckOutFile(t *testing.T) {
	dir := t.TempDir()
	if err := CheckOutFile("--plot", filepath.Join(dir, "p.svg")); err != nil {
		t.Error(err)
	}
	if err := CheckOutFile("--plot", dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder: %v", err)
	}
	if err := CheckOutFile("--plot", filepath.Join(dir, "no", "p.svg")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing folder: %v", err)
	}
	if CheckPlot("p.SVG") != nil || CheckPlot("p.png") == nil {
		t.Error("CheckPlot")
	}
}

// TestWriteMisses: text and Markdown end with why each miss missed, in
// their own style; CSV and JSON keep their shapes, and no miss writes nothing.
func TestWriteMisses(t *testing.T) {
	for format, want := range map[string]string{
		"text":     "\nWhy the misses missed (the causes of the failures; docs/RESULTS.md lists them):\n  a\n  b\n",
		"markdown": "\n## Why the misses missed\n\n- a\n- b\n",
		"csv":      "",
		"json":     "",
	} {
		var b strings.Builder
		if err := writeMisses(&b, []string{"a", "b"}, format); err != nil || b.String() != want {
			t.Errorf("%s: %q, %v; want %q", format, b.String(), err, want)
		}
	}
	var b strings.Builder
	if err := writeMisses(&b, nil, "text"); err != nil || b.Len() != 0 {
		t.Errorf("no misses: %q", b.String())
	}
}
