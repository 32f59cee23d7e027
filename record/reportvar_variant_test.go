package record

import (
	"slices"
	"testing"
)

// TestVariantsOfOneKeyBothStand: a run with a dimension (--posture off,on)
// holds the same task, track, model, seed and repeat once per variant;
// neither line replaces the other, in Read or in Scan (plain lines and
// the encoding/json fallback), and Scan passes each variant on and numbers
// the two as two cells. Without the variant in the key, the later line
// replaced the earlier with a repeat warning.
func TestVariantsOfOneKeyBothStand(t *testing.T) {
	off := episodeLine(t, 1, func(e *Episode) { e.Variant = "posture=off" })
	on := episodeLine(t, 1, func(e *Episode) { e.Variant = "posture=on" })
	tricky := episodeLine(t, 1, func(e *Episode) { e.Variant = "posture=on"; e.Task = "leap_yéar" }) // not plain: encoding/json reads it
	again := episodeLine(t, 1, func(e *Episode) { e.Variant = "posture=on" })
	dir := writeLines(t, off, on, tricky, again)
	data, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var variants []string
	for _, ep := range data.Episodes {
		variants = append(variants, ep.Variant)
	}
	if want := []string{"posture=off", "posture=on", "posture=on"}; !slices.Equal(variants, want) {
		t.Fatalf("Read kept variants %q, want %q", variants, want)
	}
	if len(data.Warnings) != 1 {
		t.Fatalf("Read warned %q: want one repeat (the last line's)", data.Warnings)
	}
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	cells := map[int]string{}
	warnings, err := f.Scan(func(l *Line) error {
		if !l.Replaces {
			got = append(got, string(l.Variant))
		}
		if v, ok := cells[l.Cell]; ok && v != string(l.Variant)+string(l.Task) {
			t.Errorf("cell %d holds %q and %q", l.Cell, v, string(l.Variant)+string(l.Task))
		}
		cells[l.Cell] = string(l.Variant) + string(l.Task)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, variants) || len(warnings) != 1 || len(cells) != 3 {
		t.Fatalf("Scan passed variants %q in %d cells, warnings %q; Read %q", got, len(cells), warnings, variants)
	}
}
