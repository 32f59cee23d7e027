// Package figure draws a report as an SVG image with gonum's plot, on
// its own so that the report's figures do not carry the plotting library
// (its fonts and image packages) where they are computed.
package figure

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"bench/report"
	"bench/trackfacts"
)

// WriteSVG draws one SVG image with two panels: on top, the pass rate per
// task and track with Wilson 95% whiskers; below, the median backend-reported
// tokens per task and track (the offline estimate where the backend reported
// none), each bar labelled with its n. When no episode has tokens (no model
// was called) the lower panel says so. Tracks are coloured as on the
// page (trackfacts.Colours, the Okabe–Ito palette, which stays distinct
// under colour-blindness).
func WriteSVG(w io.Writer, rep *report.Report) error {
	tasks, tracks := axes(rep)
	if len(tasks) == 0 {
		return fmt.Errorf("nothing to plot: the report has no episodes")
	}
	rate, err := ratePlot(rep, tasks, tracks)
	if err != nil {
		return err
	}
	width := vg.Length(max(6, 1.6*float64(len(tasks)))) * vg.Inch
	tok, err := tokensPlot(rep, tasks, tracks, width)
	if err != nil {
		return err
	}
	canvas := vgsvg.New(width, 8*vg.Inch)
	panels := plot.Align([][]*plot.Plot{{rate}, {tok}}, draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(12), PadTop: vg.Points(6), PadBottom: vg.Points(6)}, draw.New(canvas))
	rate.Draw(panels[0][0])
	tok.Draw(panels[1][0])
	_, err = canvas.WriteTo(w)
	return err
}

// axes returns the tasks (sorted) and the series of the rows: the tracks
// (report order), each with its model when the report holds several
// (Report.SeriesLabel), model by model.
func axes(rep *report.Report) (tasks, series []string) {
	for _, r := range rep.Rows {
		if !slices.Contains(tasks, r.Task) {
			tasks = append(tasks, r.Task)
		}
	}
	rows := slices.Clone(rep.Rows)
	slices.SortStableFunc(rows, func(a, b report.Row) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), trackfacts.Compare(a.Track, b.Track))
	}) // stable: the rows hold the variants in order
	for _, r := range rows {
		if l := rep.SeriesLabel(r); !slices.Contains(series, l) {
			series = append(series, l)
		}
	}
	return tasks, series
}

// offset is the horizontal shift, in task units, of track j of m.
// The tracks of a task span trackfacts.Chart.GroupShare of its slot, so
// that they sit nearer each other than the next task's.
func offset(j, m int) float64 {
	spread := trackfacts.Chart.GroupShare
	if m == 1 {
		return 0
	}
	return -spread/2 + spread*float64(j)/float64(m-1)
}

// styled sets p's text to the one chart style's size (trackfacts.Chart:
// CSS pixels, 0.75 points each) and its grid and axes to its colours.
func styled(p *plot.Plot) *plot.Plot {
	size := vg.Points(0.75 * trackfacts.Chart.FontPx)
	axis := hexColour(trackfacts.Chart.Axis)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Label.Font.Size, a.Label.TextStyle.Font.Size = size, size
		a.LineStyle.Color, a.Tick.LineStyle.Color = axis, axis
	}
	p.Legend.TextStyle.Font.Size = size
	p.Title.TextStyle.Font.Size = vg.Points(0.75 * trackfacts.Chart.FontPx * 1.2)
	return p
}

// ratePlot draws the pass rates as points with Wilson whiskers.
func ratePlot(rep *report.Report, tasks, tracks []string) (*plot.Plot, error) {
	p := styled(plot.New())
	p.Title.Text = "Pass rate per task and track (Wilson 95% interval)"
	p.Y.Label.Text = "pass rate"
	p.Y.Min, p.Y.Max = 0, 1.3 // headroom for the legend
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1"}})
	p.Legend.Top = true
	colours := seriesColours(tracks)
	for j, track := range tracks {
		var pts errPoints
		for _, r := range rep.Rows {
			if rep.SeriesLabel(r) == track && r.Rate != nil && r.Wilson != nil { // a row of no counted episode has no rate
				x := float64(slices.Index(tasks, r.Task)) + offset(j, len(tracks))
				pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: *r.Rate})
				pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{*r.Rate - r.Wilson.Low, r.Wilson.High - *r.Rate})
			}
		}
		s, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = colours[track]
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(3)
		e, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		e.LineStyle.Color = colours[track]
		e.LineStyle.Width = vg.Points(1.3)
		p.Add(s, e)
		p.Legend.Add(track, s)
	}
	p.NominalX(tasks...)
	p.X.Min, p.X.Max = -0.5, float64(len(tasks))-0.5
	return p, nil
}

// errPoints are points with vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// tokensPlot draws the median tokens as grouped bars, each labelled with
// its n, sized for an image of the given width; with no tokens at all it
// says so instead.
func tokensPlot(rep *report.Report, tasks, tracks []string, width vg.Length) (*plot.Plot, error) {
	p := styled(plot.New())
	p.Title.Text = "Median tokens per episode (prompt + completion)"
	top := 0.0
	for _, r := range rep.Rows {
		top = max(top, value(r.MedianTokens), value(r.MedianEstTokens))
	}
	if top == 0 {
		return noTokensPlot(p, tasks)
	}
	p.Y.Label.Text = "tokens"
	p.Y.Tick.Marker = wholeTicks{}
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(7) // narrow bar swatches stay inside the image, clear of the labels
	p.Legend.Padding = vg.Points(4)
	p.Legend.XOffs = -vg.Points(6)
	w := width * 0.8 * vg.Length(2*trackfacts.Chart.GroupShare) / vg.Length(len(tasks)*len(tracks))
	colours := seriesColours(tracks)
	for j, track := range tracks {
		vals := make(plotter.Values, len(tasks))
		var ns plotter.XYLabels
		for _, r := range rep.Rows {
			if rep.SeriesLabel(r) == track && r.N > 0 {
				v := value(r.MedianTokens)
				if v == 0 {
					v = value(r.MedianEstTokens)
				}
				x := slices.Index(tasks, r.Task)
				vals[x] = v
				ns.XYs = append(ns.XYs, plotter.XY{X: float64(x), Y: v})
				ns.Labels = append(ns.Labels, "n="+strconv.Itoa(r.N))
			}
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		b.Color = colours[track]
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(j)-float64(len(tracks)-1)/2) * w
		labels, err := plotter.NewLabels(ns)
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].Font.Size = vg.Points(0.75 * trackfacts.Chart.FontPx * 0.8)
			labels.TextStyle[i].XAlign = -0.5 // centred on the bar
		}
		labels.Offset = vg.Point{X: b.Offset, Y: vg.Points(2)}
		p.Add(b, labels)
		p.Legend.Add(track, b)
	}
	p.NominalX(tasks...)
	p.X.Min, p.X.Max = -0.5, float64(len(tasks))-0.5
	p.Y.Min, p.Y.Max = 0, top*1.3 // headroom for the legend and the labels
	return p, nil
}

// noTokensPlot turns p into a panel that says no episode reported or
// estimated a token: an oracle run, which calls no model.
func noTokensPlot(p *plot.Plot, tasks []string) (*plot.Plot, error) {
	msg, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    plotter.XYs{{X: float64(len(tasks)-1) / 2, Y: 0.5}},
		Labels: []string{"no tokens (no model)"},
	})
	if err != nil {
		return nil, err
	}
	msg.TextStyle[0].XAlign, msg.TextStyle[0].YAlign = -0.5, -0.5
	msg.TextStyle[0].Font.Size = vg.Points(14)
	p.Add(msg)
	p.NominalX(tasks...)
	p.X.Min, p.X.Max = -0.5, float64(len(tasks))-0.5
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = plot.ConstantTicks(nil)
	return p, nil
}

// seriesColours colours the plot's series as the page colours its tracks
// (trackfacts.Colours): a known track its own colour, any other series
// one of the palette's others.
func seriesColours(series []string) map[string]color.Color {
	out := map[string]color.Color{}
	for name, hex := range trackfacts.Colours(series) {
		out[name] = hexColour(hex)
	}
	return out
}

// hexColour reads a "#rrggbb" colour.
func hexColour(hex string) color.Color {
	var r, g, b uint8
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 0xFF}
}

// wholeTicks are gonum's default ticks labelled as whole numbers: token
// counts read "2500", not "2500.00".
type wholeTicks struct{}

// Ticks returns the default ticks between lo and hi with whole-number labels.
func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(math.Round(ticks[i].Value), 'f', -1, 64)
		}
	}
	return ticks
}

// value is *x, or 0 for nil.
func value(x *float64) float64 {
	if x == nil {
		return 0
	}
	return *x
}
