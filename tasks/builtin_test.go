package tasks

import (
	"reflect"
	"testing"
)

// Builtin is the suite that Load reads, and a caller that changes what it
// got changes nothing for the next caller.
func TestBuiltinIsTheSuiteLoadedAndItsOwnCopy(t *testing.T) {
	want, err := Load(Suite())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Builtin has %d tasks, Load(Suite()) %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		w.FS, g.FS = nil, nil // the same embedded tree, not comparable by value
		if !reflect.DeepEqual(g, w) {
			t.Errorf("task %d: Builtin %+v, Load %+v", i, g, w)
		}
	}
	got[0].Name, got[0].TestCmd[0], got[0].Tests[0], got[0].TestFiles[0] = "changed", "changed", "changed", "changed"
	again, _ := Builtin()
	if again[0].Name != want[0].Name || again[0].TestCmd[0] != want[0].TestCmd[0] ||
		again[0].Tests[0] != want[0].Tests[0] || again[0].TestFiles[0] != want[0].TestFiles[0] {
		t.Errorf("a caller's change reached the next caller: %+v", again[0])
	}
}

func BenchmarkCatalogue(b *testing.B) {
	for b.Loop() {
		if _, err := Catalogue(""); err != nil {
			b.Fatal(err)
		}
	}
}
