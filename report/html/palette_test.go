package html

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bench/record"
	"bench/report"
	"bench/report/figure"
	"bench/trackfacts"
)

// svgFills are the colours the SVG plot fills with, but for its
// background and text.
func svgFills(t *testing.T, rep *report.Report) []string {
	t.Helper()
	var b bytes.Buffer
	if err := figure.WriteSVG(&b, rep); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, m := range regexp.MustCompile(`fill:(#[0-9A-Fa-f]{6})`).FindAllStringSubmatch(b.String(), -1) {
		if c := strings.ToUpper(m[1]); c != "#FFFFFF" && c != "#000000" {
			set[c] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// pageKeys maps each track of the page's legend to its colour.
func pageKeys(t *testing.T, rep *report.Report, runs []record.Data) map[string]string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, rep, runs, Options{}); err != nil {
		t.Fatal(err)
	}
	legend := regexp.MustCompile(`<p class="legend">(.*?)</p>`).FindStringSubmatch(b.String())
	if legend == nil {
		t.Fatal("the page has no chart legend")
	}
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`background:(#[0-9A-Fa-f]{6})"></span>([^<]+)</span>`).FindAllStringSubmatch(legend[1], -1) {
		out[m[2]] = strings.ToUpper(m[1])
	}
	return out
}

// TestPlotAndPageShareOnePalette: the SVG plot and the page colour each
// track alike, from trackfacts: a known track its own colour, and the
// plot's track colours are the page legend's.
func TestPlotAndPageShareOnePalette(t *testing.T) {
	tracks := []string{"workflow", "workflow-retry", "hybrid", "agent", "oracle", "my-track"}
	data := func(tracks ...string) []record.Data {
		d := record.Data{Run: record.Run{ID: "p", Model: "m", Tracks: tracks}}
		for _, tr := range tracks {
			d.Episodes = append(d.Episodes, record.Episode{Task: "t", Track: tr, Model: "m", Seed: 1, Passed: true, TestsPassed: 1, TestsTotal: 1,
				ExitReason: record.ExitDone, PromptTokens: 100})
		}
		return []record.Data{d}
	}
	for _, tr := range tracks[:5] {
		runs := data(tr)
		rep := report.FromData(runs).Report()
		f, _ := trackfacts.Lookup(tr)
		want := strings.ToUpper(f.Colour)
		if got := svgFills(t, rep); !slices.Equal(got, []string{want}) {
			t.Errorf("%s: the plot fills with %v, want its colour %s", tr, got, want)
		}
		if got := pageKeys(t, rep, runs)[tr]; got != want {
			t.Errorf("%s: the page's key is %s, want %s", tr, got, want)
		}
	}
	runs := data(tracks...)
	rep := report.FromData(runs).Report()
	keys := pageKeys(t, rep, runs)
	if len(keys) != len(tracks) {
		t.Fatalf("the page's legend has %v, want every track", keys)
	}
	page := slices.Sorted(maps.Values(keys))
	if got := svgFills(t, rep); !slices.Equal(got, page) {
		t.Errorf("the plot's colours %v are not the page's %v", got, page)
	}
}

// TestPageCSSTakesThePaletteFromGo: page.css names no colour of the
// palette or the chart style; they reach the page as variables that
// chartCSS sets from trackfacts, and every variable page.css reads of
// them is set there (or by the page itself, its bars' sizes).
func TestPageCSSTakesThePaletteFromGo(t *testing.T) {
	c := trackfacts.Chart
	for _, colour := range slices.Concat(trackfacts.Palette, []string{c.Grid, c.Axis, c.Whisker, c.PassText, c.FailText}) {
		if strings.Contains(strings.ToUpper(pageCSS), strings.ToUpper(colour)) {
			t.Errorf("page.css names %s, a colour trackfacts declares", colour)
		}
	}
	set := chartCSS()
	for _, m := range regexp.MustCompile(`var\((--[a-z-]+)\)`).FindAllStringSubmatch(pageCSS, -1) {
		if !strings.Contains(set+pageCSS+pageTemplate+pageJS, m[1]+":") {
			t.Errorf("page.css reads %s, which neither chartCSS nor the page sets", m[1])
		}
	}
	for _, k := range kindLabels {
		if !strings.Contains(set, ".k-"+k.Kind+"{--c:"+k.Colour+"}") {
			t.Errorf("chartCSS gives the step kind %s no colour", k.Kind)
		}
	}
}
