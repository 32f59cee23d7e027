package report

import (
	"bytes"
	"testing"

	"bench/record"
)

// TestReadIsBuild: the report of the runs streamed (as `bench report`
// reads them) is the report of the runs read whole (as the html page reads
// them), in every format.
func TestReadIsBuild(t *testing.T) {
	for _, dirs := range [][]string{
		{"testdata/synthetic-run"},
		{"testdata/synthetic-new"},
		{"testdata/synthetic-run", "testdata/synthetic-new", "testdata/synthetic-run"},
	} {
		var whole []record.Data
		for _, dir := range dirs {
			d, err := record.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			whole = append(whole, d)
		}
		agg, err := Read(dirs)
		if err != nil {
			t.Fatal(err)
		}
		want, got := FromData(whole).Report(), agg.Report()
		for _, write := range []func(*bytes.Buffer, *Report) error{
			func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) },
			func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) },
			func(b *bytes.Buffer, r *Report) error { return WriteCSV(b, r) },
		} {
			var w, g bytes.Buffer
			if err := write(&w, want); err != nil {
				t.Fatal(err)
			}
			if err := write(&g, got); err != nil {
				t.Fatal(err)
			}
			if w.String() != g.String() {
				t.Errorf("%v: the report of outcomes differs:\n%s\nwant\n%s", dirs, g.String(), w.String())
			}
		}
	}
}
