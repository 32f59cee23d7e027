package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// WriteSVG draws one SVG image with two panels: on top, the pass rate per
// task and track with Wilson 95% whiskers; below, the median backend-reported
// tokens per task and track (the offline estimate where the backend reported
// none).
func WriteSVG(w io.Writer, rep *Report) error {
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

// axes returns the tasks (sorted) and tracks (report order) of the rows.
func axes(rep *Report) (tasks, tracks []string) {
	for _, r := range rep.Rows {
		if !slices.Contains(tasks, r.Task) {
			tasks = append(tasks, r.Task)
		}
		if !slices.Contains(tracks, r.Track) {
			tracks = append(tracks, r.Track)
		}
	}
	slices.SortFunc(tracks, compareTracks)
	return tasks, tracks
}

// offset is the horizontal shift, in task units, of track j of m.
func offset(j, m int) float64 {
	const spread = 0.6
	if m == 1 {
		return 0
	}
	return -spread/2 + spread*float64(j)/float64(m-1)
}

// ratePlot draws the pass rates as points with Wilson whiskers.
func ratePlot(rep *Report, tasks, tracks []string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Pass rate per task and track (Wilson 95% interval)"
	p.Y.Label.Text = "pass rate"
	p.Y.Min, p.Y.Max = 0, 1.3 // headroom for the legend
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1"}})
	p.Legend.Top = true
	for j, track := range tracks {
		var pts errPoints
		for _, r := range rep.Rows {
			if r.Track == track {
				x := float64(slices.Index(tasks, r.Task)) + offset(j, len(tracks))
				pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: r.Rate})
				pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{r.Rate - r.Wilson.Low, r.Wilson.High - r.Rate})
			}
		}
		s, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = plotutil.Color(j)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(3)
		e, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		e.LineStyle.Color = plotutil.Color(j)
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

// tokensPlot draws the median tokens as grouped bars, sized for an image
// of the given width.
func tokensPlot(rep *Report, tasks, tracks []string, width vg.Length) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Median tokens per episode (prompt + completion)"
	p.Y.Label.Text = "tokens"
	p.Y.Tick.Marker = wholeTicks{}
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(7) // narrow bar swatches stay inside the image, clear of the labels
	p.Legend.Padding = vg.Points(4)
	p.Legend.XOffs = -vg.Points(6)
	w := width * 0.8 * 0.6 / vg.Length(len(tasks)*len(tracks))
	top := 0.0
	for j, track := range tracks {
		vals := make(plotter.Values, len(tasks))
		for _, r := range rep.Rows {
			if r.Track == track {
				v := r.MedianTokens
				if v == 0 {
					v = r.MedianEstTokens
				}
				vals[slices.Index(tasks, r.Task)] = v
				top = max(top, v)
			}
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		b.Color = plotutil.Color(j)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(j)-float64(len(tracks)-1)/2) * w
		p.Add(b)
		p.Legend.Add(track, b)
	}
	p.NominalX(tasks...)
	p.X.Min, p.X.Max = -0.5, float64(len(tasks))-0.5
	p.Y.Min, p.Y.Max = 0, max(1, top*1.3) // headroom for the legend
	return p, nil
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
