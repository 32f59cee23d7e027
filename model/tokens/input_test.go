package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadText: a text file and stdin are read; a missing file, a folder
// and binary bytes are refused with a sentence that says which.
func TestReadText(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "a.txt")
	bin := filepath.Join(dir, "b.bin")
	if err := os.WriteFile(text, []byte("héllo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("a\x00b"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadText(text, nil); err != nil || got != "héllo" {
		t.Errorf("file: %q, %v", got, err)
	}
	for _, name := range []string{"", "-"} {
		if got, err := ReadText(name, strings.NewReader("in")); err != nil || got != "in" {
			t.Errorf("stdin %q: %q, %v", name, got, err)
		}
	}
	for name, want := range map[string]string{filepath.Join(dir, "none"): "does not exist", dir: "is a folder", bin: "is not text"} {
		if _, err := ReadText(name, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if _, err := ReadText("-", strings.NewReader("\xff")); err == nil || !strings.HasPrefix(err.Error(), "stdin is not text") {
		t.Errorf("binary stdin: %v", err)
	}
}
