package html

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"bench/record"
	"bench/report"
	"bench/trackfacts"
)

// trackColours gives each track of the report a colour, as the plot does
// (trackfacts.Colours).
func trackColours(tracks []string) map[string]string { return trackfacts.Colours(tracks) }

// chart is a grouped bar chart drawn as inline SVG: one group per task,
// one bar per track.
type chart struct {
	Title, Caption string
	Width, Height  float64
	MinWidth       float64 // narrower, the chart scrolls rather than shrinks
	MaxWidth       float64 // wider, it stops growing
	Bars           []bar
	Ticks          []tick
	Labels         []axisLabel
	Base, Left     float64 // the y of the zero line, the x of the axis
}

// bar is one bar with its whisker (when Low < High) and labels.
type bar struct {
	X, Y, W, H  float64
	CX, Cap     float64 // the bar's centre, the left end of the whisker's caps
	Colour      string
	Hatched     bool // an estimate, not a measurement
	WLow, WHigh float64
	Whisker     bool
	LabelY      float64
	Label       string // "n=8"
	Title       string // the tooltip
	Href        string
	Task, Track string
}

// tick is a y-axis tick and its grid line.
type tick struct {
	Y     float64
	Label string
}

// axisLabel is a task's name under its group.
type axisLabel struct {
	X, Y   float64
	Text   string
	Rotate bool
}

// Chart geometry, in SVG user units.
const (
	barW      = 26.0
	groupGap  = 22.0
	plotH     = 180.0
	marginTop = 26.0
	marginL   = 52.0
)

// axes lists the chart groups (tasks, or task and model; in row order) and
// the tracks of a report's rows.
func axes(rep *report.Report) (groups, tracks []string) {
	for _, r := range rep.Rows {
		if g := group(rep, r); !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	for _, t := range rep.Tracks {
		tracks = append(tracks, t.Track)
	}
	return groups, tracks
}

// newChart lays out one bar per row; value gives its height in [0, 1] of
// the plot, its whisker and its label.
func newChart(rep *report.Report, colours map[string]string, ticks []tick, value func(r report.Row) (h, low, high float64, est bool, title string)) chart {
	tasks, tracks := axes(rep)
	groupW := float64(len(tracks))*barW + groupGap
	c := chart{Left: marginL, Base: marginTop + plotH}
	rotate := false
	for _, t := range tasks {
		rotate = rotate || float64(len(t))*6.5 > groupW
	}
	bottom := 36.0
	if rotate {
		longest := 0
		for _, t := range tasks {
			longest = max(longest, len(t))
		}
		bottom = 20 + float64(longest)*4.6
	}
	c.Width = marginL + float64(len(tasks))*groupW + 8
	c.Height = c.Base + bottom
	c.MinWidth, c.MaxWidth = math.Round(0.75*c.Width), math.Round(1.6*c.Width)
	for _, t := range ticks {
		c.Ticks = append(c.Ticks, tick{Y: c.Base - t.Y*plotH, Label: t.Label})
	}
	for i, task := range tasks {
		x0 := marginL + groupGap/2 + float64(i)*groupW
		c.Labels = append(c.Labels, axisLabel{X: x0 + float64(len(tracks))*barW/2, Y: c.Base + 16, Text: task, Rotate: rotate})
		for _, r := range rep.Rows {
			if group(rep, r) != task {
				continue
			}
			j := slices.Index(tracks, r.Track)
			h, low, high, est, title := value(r)
			label := "n=" + strconv.Itoa(r.N)
			if r.N == 0 {
				label = "n=0 " + report.Undefined
			}
			b := bar{X: x0 + float64(j)*barW + 2, W: barW - 4, H: h * plotH, Colour: colours[r.Track], Hatched: est,
				Label: label, Title: title, Href: "#" + rowID(r.Task, r.Track, shownModel(rep, r.Model)), Task: r.Task, Track: r.Track}
			b.Y = c.Base - b.H
			top := b.Y
			if high > low {
				b.Whisker, b.WLow, b.WHigh = true, c.Base-low*plotH, c.Base-high*plotH
				top = min(top, b.WHigh)
			}
			b.LabelY = top - 4
			b.CX, b.Cap = b.X+b.W/2, b.X+b.W/2-4
			round1(&b.X, &b.Y, &b.W, &b.H, &b.CX, &b.Cap, &b.WLow, &b.WHigh, &b.LabelY)
			c.Bars = append(c.Bars, b)
		}
	}
	return c
}

// rateChart draws the pass rate per task and track with Wilson whiskers.
func rateChart(rep *report.Report, colours map[string]string) chart {
	var ticks []tick
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		ticks = append(ticks, tick{Y: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
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
		ticks = append(ticks, tick{Y: float64(i) / 4, Label: compact(v)})
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
func rowID(task, track, model string) string {
	id := "row-" + idPart(task) + "-" + idPart(track)
	if model != "" {
		id += "-" + idPart(record.ModelDir(model))
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
		return r.Task + " · " + m
	}
	return r.Task
}

// round1 rounds coordinates to a tenth of a unit, to keep the SVG short.
func round1(xs ...*float64) {
	for _, x := range xs {
		*x = math.Round(*x*10) / 10
	}
}
