package trackfacts

import "testing"

// TestChartStyle: the text is readable, the hybrid's steps are marked in
// the hybrid's colour, and a task's group leaves a wider gap than it spans.
func TestChartStyle(t *testing.T) {
	if Chart.FontPx < MinFontPx {
		t.Errorf("chart text %.0f px, below %d px", Chart.FontPx, MinFontPx)
	}
	if f, _ := Lookup(Hybrid); Chart.Within != f.Colour {
		t.Errorf("the within colour %s is not the hybrid's %s", Chart.Within, f.Colour)
	}
	if Chart.GroupShare <= 0 || Chart.GroupShare >= 0.5 {
		t.Errorf("group share %.2f: a task's tracks would sit as near another task's as their own", Chart.GroupShare)
	}
}
