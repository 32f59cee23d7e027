package html

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"bench/record"
	"bench/report"
	"bench/trackfacts"
)

// chart is a grouped bar chart laid out horizontally in HTML: one group
// per task, its name whole on the left, one bar per track on the right,
// as long as its value. Its width follows the page and its height the
// number of tasks, so that it fits any suite at any window width with its
// text at trackfacts.Chart's size.
type chart struct {
	Title, Caption string
	Ticks          []tick
	Groups         []barGroup
}

// barGroup is one task's bars.
type barGroup struct {
	Task string
	Bars []bar
}

// bar is one bar with its whisker (when Low < High) and its label, its
// extents in percent of the value axis.
type bar struct {
	W           float64 // the bar's length, in percent
	Low, High   float64 // the whisker's ends, in percent
	Whisker     bool
	Colour      string
	Hatched     bool   // an estimate, not a measurement
	Label       string // "n=8"
	Title       string // the tooltip
	Href        string
	Task, Track string
}

// tick is a value-axis tick, at Pos percent.
type tick struct {
	Pos   float64
	Label string
}

// axes lists the chart groups (tasks, or task and model; in row order) and
// the tracks of a report's rows.
func axes(rep *report.Report) (groups, tracks []string) {
	for _, r := range rep.Rows {
		if g := group(rep, r); !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	for _, t := range rep.Tracks {
		if !slices.Contains(tracks, t.Track) { // a track of several models or variants is one series
			tracks = append(tracks, t.Track)
		}
	}
	return groups, tracks
}

// newChart lays out one bar per row, in track order within its task;
// value gives its length in [0, 1], its whisker and its tooltip.
func newChart(rep *report.Report, colours map[string]string, ticks []tick, value func(r report.Row) (h, low, high float64, est bool, title string)) chart {
	tasks, tracks := axes(rep)
	c := chart{}
	for _, t := range ticks {
		c.Ticks = append(c.Ticks, tick{Pos: pct(t.Pos), Label: t.Label})
	}
	for _, task := range tasks {
		g := barGroup{Task: task}
		for _, track := range tracks {
			for _, r := range rep.Rows {
				if group(rep, r) != task || r.Track != track {
					continue
				}
				h, low, high, est, title := value(r)
				label := "n=" + strconv.Itoa(r.N)
				if r.N == 0 {
					label = "n=0 " + report.Undefined
				}
				b := bar{W: pct(h), Colour: colours[r.Track], Hatched: est, Label: label, Title: title,
					Href: "#" + rowID(r.Task, r.Track, shownModel(rep, r.Model), r.Variant), Task: r.Task, Track: r.Track}
				if high > low {
					b.Whisker, b.Low, b.High = true, pct(low), pct(high)
				}
				g.Bars = append(g.Bars, b)
			}
		}
		c.Groups = append(c.Groups, g)
	}
	return c
}

// pct is a share in [0, 1] as a percentage rounded to a tenth.
func pct(x float64) float64 { return math.Round(min(max(x, 0), 1)*1000) / 10 }

// spentTokens reports whether a row has reported or estimated tokens: a
// run without (the oracle's) has no token chart.
func spentTokens(rep *report.Report) bool {
	for _, r := range rep.Rows {
		if rowTokens(r) > 0 {
			return true
		}
	}
	return false
}

// rateChart draws the pass rate per task and track with Wilson whiskers.
func rateChart(rep *report.Report, colours map[string]string) chart {
	var ticks []tick
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		ticks = append(ticks, tick{Pos: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	c := newChart(rep, colours, ticks, func(r report.Row) (float64, float64, float64, bool, string) {
		if r.Rate == nil || r.Wilson == nil {
			return 0, 0, 0, false, fmt.Sprintf("%s · %s: no counted episode, no rate", r.Task, r.Track)
		}
		return *r.Rate, r.Wilson.Low, r.Wilson.High, false,
			fmt.Sprintf("%s · %s: %d/%d passed, rate %.2f, 95%% interval [%.2f, %.2f]", r.Task, r.Track, r.Passed, r.N, *r.Rate, r.Wilson.Low, r.Wilson.High)
	})
	c.Title = "Pass rate per task and track"
	c.Caption = "Bars: the share of episodes that passed; whiskers: the Wilson 95% interval; n: the episodes behind each bar."
	return c
}

// tokensChart draws the median tokens per task and track; hatched bars
// are the offline estimate, where the backend reported no tokens.
func tokensChart(rep *report.Report, colours map[string]string) chart {
	top := 0.0
	for _, r := range rep.Rows {
		top = max(top, rowTokens(r))
	}
	scale := niceCeil(top)
	var ticks []tick
	for i := range 5 {
		v := scale * float64(i) / 4
		ticks = append(ticks, tick{Pos: float64(i) / 4, Label: compact(v)})
	}
	c := newChart(rep, colours, ticks, func(r report.Row) (float64, float64, float64, bool, string) {
		if r.N == 0 {
			return 0, 0, 0, false, fmt.Sprintf("%s · %s: no counted episode, no median", r.Task, r.Track)
		}
		v := rowTokens(r)
		est := value(r.MedianTokens) <= 0 && v > 0
		what := "median tokens"
		if est {
			what = "median estimated tokens (the backend reported none)"
		}
		return v / scale, 0, 0, est, fmt.Sprintf("%s · %s: %s %s over %d episodes", r.Task, r.Track, what, strconv.FormatFloat(v, 'f', -1, 64), r.N)
	})
	c.Title = "Tokens per episode, per task and track (median)"
	c.Caption = "Bars: the median of prompt + completion tokens as the backend reported them (hatched: the offline estimate, where it reported none); n: the episodes behind each bar."
	return c
}

// rowTokens is a row's median reported tokens, or its estimate when the
// backend reported none.
func rowTokens(r report.Row) float64 {
	if value(r.MedianTokens) > 0 {
		return value(r.MedianTokens)
	}
	return value(r.MedianEstTokens)
}

// value is *x, or 0 for nil (n = 0).
func value(x *float64) float64 {
	if x == nil {
		return 0
	}
	return *x
}

// niceCeil rounds x up to 1, 2, 2.5 or 5 times a power of ten (1 for x ≤ 0).
func niceCeil(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// compact writes a tick value briefly: 2500 as 2.5k, 3000000 as 3M.
func compact(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// rowID is the id of a task and track's row in the per-task table; model
// is the row's model in a report of several models, else "".
func rowID(task, track, model, variant string) string {
	id := "row-" + idPart(task) + "-" + idPart(track)
	if model != "" {
		id += "-" + idPart(record.ModelDir(model))
	}
	if variant != "" {
		id += "-" + idPart(variant)
	}
	return id
}

// shownModel is model when the report's rows are of several models (so
// that rows, bars and episodes name theirs), else "".
func shownModel(rep *report.Report, model string) string {
	for _, r := range rep.Rows {
		if r.Model != rep.Rows[0].Model {
			return model
		}
	}
	return ""
}

// group is the chart group (the x-axis label) of a row: its task, and its
// model in a report of several models.
func group(rep *report.Report, r report.Row) string {
	if m := shownModel(rep, r.Model); m != "" {
		return report.VariantLabel(r.Task+" · "+m, r.Variant)
	}
	return report.VariantLabel(r.Task, r.Variant)
}

// chartCSS sets the page's chart variables from the one chart style
// (trackfacts.Chart), which the SVG plot reads too, and the palette's
// colours the page uses: the outcomes' and the timeline's kinds'. page.css
// names none of them (TestPageCSSTakesThePaletteFromGo).
func chartCSS() string {
	c := trackfacts.Chart
	var b strings.Builder
	fmt.Fprintf(&b, ":root{--chart-font:%gpx;--bar:%gpx;--grid:%s;--axis:%s;--whisker:%s;--within:%s;--pass:%s;--fail:%s;--pass-text:%s;--fail-text:%s}\n",
		c.FontPx, c.BarPx, c.Grid, c.Axis, c.Whisker, c.Within, c.Pass, c.Fail, c.PassText, c.FailText)
	for _, k := range kindLabels {
		fmt.Fprintf(&b, ".k-%s{--c:%s}", k.Kind, k.Colour)
	}
	b.WriteString("\n")
	return b.String()
}
