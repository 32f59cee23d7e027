package report

import (
	"os"
	"strings"
	"testing"
)

var sales = []Row{{"tea", 12}, {"coffee", 7}, {"shortbread", 105}}

func TestRenderGolden(t *testing.T) {
	want, err := os.ReadFile("testdata/sales.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got := Render(sales); got != string(want) {
		t.Errorf("Render output does not match testdata/sales.golden; got:\n%s", got)
	}
}

func TestOneLinePerRow(t *testing.T) {
	if n := strings.Count(Render(sales), "\n"); n != 3 {
		t.Errorf("Render wrote %d lines, want 3", n)
	}
}

func TestEmpty(t *testing.T) {
	if got := Render(nil); got != "" {
		t.Errorf("Render(nil) = %q, want nothing", got)
	}
}
