package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"bench/internal/synth"
	"bench/record"
)

// writeAll renders rep in every text format, one after another.
func writeAll(t *testing.T, rep *Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, write := range []func(io.Writer, *Report) error{WriteText, WriteMarkdown, WriteCSV, WriteJSON} {
		if err := write(&buf, rep); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// TestSyntheticReportsAgreeEverywhere reads synthetic runs of several
// sizes as bench report does (streamed, decoded by the plain reader on
// other goroutines) at one, two and three threads, and as the page does
// (record.Read, encoding/json, one goroutine): every way gives the same
// bytes in every format, so that neither the thread count nor the decoder
// changes a figure.
func TestSyntheticReportsAgreeEverywhere(t *testing.T) {
	sizes := []int{600, 6000}
	if !testing.Short() {
		sizes = append(sizes, 20_000)
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			if _, err := synth.Write(dir, n, synth.Options{Seed: 3}); err != nil {
				t.Fatal(err)
			}
			data, err := record.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			want := writeAll(t, FromData([]record.Data{data}).Report())
			if !bytes.Contains(want, []byte("pooled")) {
				t.Fatalf("the report of %d episodes has no pooled answer: the test lost its point", n)
			}
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
			for _, procs := range []int{1, 2, 3} {
				runtime.GOMAXPROCS(procs)
				agg, err := Read([]string{dir})
				if err != nil {
					t.Fatal(err)
				}
				if got := writeAll(t, agg.Report()); !bytes.Equal(got, want) {
					t.Fatalf("at GOMAXPROCS %d the streamed report differs from the one read whole:\n%s", procs, firstDifference(got, want))
				}
			}
		})
	}
}

// firstDifference shows where two renderings part, with some context.
func firstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("at byte %d\n--- got\n%s\n--- want\n%s", i, got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
}
