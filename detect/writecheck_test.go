package detect

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteCheckOfAMissingReplay: a replay that lost every case differs
// from the built-in table in all of them, each case named on its line.
func TestWriteCheckOfAMissingReplay(t *testing.T) {
	want, err := Expected()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	differ, expected, err := WriteCheck(&out, nil, "")
	if err != nil || differ != len(want) || expected != len(want) {
		t.Fatalf("WriteCheck = %d, %d, %v; want %d of %d", differ, expected, err, len(want), len(want))
	}
	if n := strings.Count(out.String(), "missing from the replay"); n != len(want) {
		t.Errorf("%d cases said missing, want %d:\n%s", n, len(want), out.String())
	}
}

// TestWriteCheckOfAnUnreadableTable: an expected file that is not there
// is an error, and nothing is written.
func TestWriteCheckOfAnUnreadableTable(t *testing.T) {
	var out bytes.Buffer
	if _, _, err := WriteCheck(&out, nil, filepath.Join(t.TempDir(), "none.json")); err == nil || out.Len() != 0 {
		t.Errorf("err %v, wrote %q", err, out.String())
	}
}
