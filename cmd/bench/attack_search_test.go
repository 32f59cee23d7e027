package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bench/internal/testsupport/fixture"
)

// TestAnswerSearchFindsNeedlesAcrossPieces: the answer search that the
// answer attacks run reports every file holding a needle wherever it lies
// against the search's 1 MiB pieces (at the start, across a boundary,
// ending on one, in a later piece, after a short needle), and no file that
// holds only most of one; it counts the files it read.
func TestAnswerSearchFindsNeedlesAcrossPieces(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	const mib = 1 << 20
	long, short := strings.Repeat("answer line ", 10), "only the answer has this"
	dir := t.TempDir()
	files := map[string][]byte{}
	put := func(name, needle string, at int) {
		b := append(bytes.Repeat([]byte{'x'}, at), needle...)
		files[name] = append(b, bytes.Repeat([]byte{'y'}, 100)...)
	}
	// The first piece fills the buffer (1 MiB and the longest needle's
	// length), each later one 1 MiB after the kept bytes.
	one, two := mib+len(long), 2*mib+len(long)
	for name, at := range map[string]int{"start": 0, "across": one - 5, "ends-on-boundary": one - len(long), "after-boundary": one, "third-piece": two + 7, "across-second": two - 3} {
		put(name, long, at)
	}
	put("short-needle", short, one-3)
	put("near-miss", long[:len(long)-1], one-5)
	put("near-miss-small", short[1:], 0)
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code := searchCode(searchScope{deep: []string{dir}, noProc: true}, []string{long, short})
	cmd := exec.Command(fixture.Python(t), "-c", code)
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the search: %v\n%s", err, out)
	}
	var found []string
	for _, m := range foundLine.FindAllStringSubmatch(string(out), -1) {
		found = append(found, filepath.Base(m[1]))
	}
	want := []string{"across", "across-second", "after-boundary", "ends-on-boundary", "short-needle", "start", "third-piece"}
	if !slices.Equal(found, want) {
		t.Errorf("the search found %q; want %q\n%s", found, want, out)
	}
	if !strings.Contains(string(out), "SEARCHED 9 files") {
		t.Errorf("the search did not read the 9 files:\n%s", out)
	}
}
