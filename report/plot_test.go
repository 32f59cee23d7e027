package report

import (
	"bytes"
	"strings"
	"testing"

	"bench/record"
)

// svgOf draws the report's plot.
func svgOf(t *testing.T, rep *Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSVG(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestPlotWithoutTokensSaysSo: with every token count zero (the oracle
// demo) the token panel says "no tokens (no model)" instead of an empty
// panel with axis labels 0, 1, 1.
func TestPlotWithoutTokensSaysSo(t *testing.T) {
	var eps []record.Episode
	for s := 1; s <= 3; s++ {
		eps = append(eps, episode("a", "oracle", s, 0, true, 0), episode("b", "oracle", s, 0, true, 0))
	}
	svg := svgOf(t, FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report())
	if !strings.Contains(svg, "no tokens (no model)") {
		t.Errorf("the token panel does not say there are no tokens")
	}
	if strings.Count(svg, ">1</text>") > 1 {
		t.Errorf("the token panel still has a 0..1 axis (label 1 appears %d times)", strings.Count(svg, ">1</text>"))
	}
}

// TestPlotPaletteAndN: the tracks are drawn in the Okabe–Ito palette
// (colour-blind safe), each known track in the colour the page gives it
// (workflow blue, agent orange), and every bar says its n.
func TestPlotPaletteAndN(t *testing.T) {
	var eps []record.Episode
	for s := 1; s <= 4; s++ {
		eps = append(eps, episode("a", "workflow", s, 0, true, 100), episode("a", "agent", s, 0, s < 3, 400))
	}
	eps = append(eps, episode("a", "agent", 5, 0, false, 500))
	svg := svgOf(t, FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report())
	for _, c := range []string{"#E69F00", "#0072B2"} { // orange, blue
		if !strings.Contains(svg, c) {
			t.Errorf("the plot lacks the Okabe–Ito colour %s", c)
		}
	}
	for _, n := range []string{">n=4<", ">n=5<"} {
		if !strings.Contains(svg, n) {
			t.Errorf("the plot lacks the label %s", n)
		}
	}
}
