package figure

import (
	"bytes"
	"strings"
	"testing"

	"bench/record"
	"bench/report"
)

// svgOf draws the report of the episodes.
func svgOf(t *testing.T, eps []record.Episode) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSVG(&buf, report.FromData([]record.Data{{Dir: "d", Run: record.Run{ID: "r"}, Episodes: eps}}).Report()); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// episode makes a test episode with one test, passed or failed.
func episode(task, track string, seed int, passed bool, tokens int) record.Episode {
	ep := record.Episode{Task: task, Track: track, Seed: seed, Passed: passed,
		TestsTotal: 1, ExitReason: record.ExitDone, PromptTokens: tokens}
	if passed {
		ep.TestsPassed = 1
	}
	return ep
}

func TestSVGHasBothPanelsAndTaskNames(t *testing.T) {
	var eps []record.Episode
	for s := 1; s <= 3; s++ {
		for _, task := range []string{"parse_date", "leap_year"} {
			eps = append(eps, episode(task, "workflow", s, true, 300), episode(task, "agent", s, s != 2, 900))
		}
	}
	svg := svgOf(t, eps)
	if !strings.HasPrefix(strings.TrimSpace(svg), "<?xml") || !strings.Contains(svg, "<svg") {
		t.Fatalf("not an SVG document: %.200q", svg)
	}
	for _, want := range []string{"parse_date", "leap_year", "Pass rate", "Median tokens", "workflow", "agent", ">n=3<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG does not mention %q", want)
		}
	}
}

func TestSVGRefusesEmptyReport(t *testing.T) {
	var buf bytes.Buffer
	err := WriteSVG(&buf, report.FromData(nil).Report())
	if err == nil || !strings.Contains(err.Error(), "no episodes") {
		t.Fatalf("WriteSVG on an empty report: err = %v, want one saying there are no episodes", err)
	}
}

// TestSVGOfLostCellHasNoNaN: a cell whose every episode was lost has no
// rate, and the plot leaves it out rather than drawing NaN.
func TestSVGOfLostCellHasNoNaN(t *testing.T) {
	lost := episode("t", "agent", 1, false, 0)
	lost.ExitReason, lost.ErrorKind = record.ExitError, record.ErrorServer
	svg := svgOf(t, []record.Episode{lost, episode("t", "workflow", 1, true, 100)})
	if strings.Contains(svg, "NaN") {
		t.Errorf("the SVG holds NaN:\n%s", svg)
	}
}

// TestPlotWithoutTokensSaysSo: with every token count zero (the oracle
// demo) the token panel says "no tokens (no model)" instead of an empty
// panel with axis labels 0, 1, 1.
func TestPlotWithoutTokensSaysSo(t *testing.T) {
	var eps []record.Episode
	for s := 1; s <= 3; s++ {
		eps = append(eps, episode("a", "oracle", s, true, 0), episode("slugify", "oracle", s, true, 0))
	}
	svg := svgOf(t, eps)
	if !strings.Contains(svg, "no tokens (no model)") {
		t.Errorf("the token panel does not say there are no tokens")
	}
	if strings.Count(svg, ">1</text>") > 1 {
		t.Errorf("the token panel still has a 0..1 axis (label 1 appears %d times)", strings.Count(svg, ">1</text>"))
	}
	if !strings.Contains(svg, "slugify") {
		t.Errorf("the plot lacks the task slugify")
	}
}

// TestPlotPaletteAndN: the tracks are drawn in the Okabe–Ito palette
// (colour-blind safe), each known track in the colour the page gives it
// (workflow blue, agent orange), and every bar says its n.
func TestPlotPaletteAndN(t *testing.T) {
	var eps []record.Episode
	for s := 1; s <= 4; s++ {
		eps = append(eps, episode("a", "workflow", s, true, 100), episode("a", "agent", s, s < 3, 400))
	}
	eps = append(eps, episode("a", "agent", 5, false, 500))
	svg := svgOf(t, eps)
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

// TestSeriesOfSeveralModels: with two models the series are named by
// track and model, grouped model by model, each track in trackfacts'
// order within its model, and every variant its own series after its
// track's.
func TestSeriesOfSeveralModels(t *testing.T) {
	var eps []record.Episode
	for _, m := range []string{"qwen3:8b", "llama3:8b"} {
		for _, track := range []string{"agent", "workflow"} {
			for _, variant := range []string{"", "posture=on"} {
				e := episode("a", track, 1, true, 100)
				e.Model, e.Variant = m, variant
				eps = append(eps, e)
			}
		}
	}
	rep := report.FromData([]record.Data{{Dir: "d", Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	_, series := axes(rep)
	want := []string{
		"workflow (llama3:8b)", "workflow (llama3:8b) [posture=on]", "agent (llama3:8b)", "agent (llama3:8b) [posture=on]",
		"workflow (qwen3:8b)", "workflow (qwen3:8b) [posture=on]", "agent (qwen3:8b)", "agent (qwen3:8b) [posture=on]",
	}
	if strings.Join(series, "|") != strings.Join(want, "|") {
		t.Errorf("series = %q, want %q", series, want)
	}
}
