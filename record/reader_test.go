package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLineCountSizesWhatIsRead counts the lines Read sizes its episodes
// by, across buffer boundaries, with and without a last newline, and 0
// for a file that cannot be read.
func TestLineCountSizesWhatIsRead(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 300<<10) // longer than one read
	for _, c := range []struct {
		text string
		want int
	}{{"", 0}, {"a\n", 1}, {"a\nb", 1}, {"a\n\nb\n", 3}, {long + "\n" + long + "\n" + long, 2}} {
		path := filepath.Join(dir, "episodes.jsonl")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := lineCount(path); got != c.want {
			t.Errorf("lineCount of %d bytes = %d, want %d", len(c.text), got, c.want)
		}
	}
	if got := lineCount(filepath.Join(dir, "missing")); got != 0 {
		t.Errorf("lineCount of a missing file = %d, want 0", got)
	}
}
