package trackfacts

// ChartStyle is the one style of bench's charts, as data: the SVG plot
// (bench report --plot) and the page's charts (bench report --format
// html) both read Chart, so that they look alike.
type ChartStyle struct {
	// FontPx is the size of every label and tick, in CSS pixels (the
	// plot sets it as FontPx×0.75 points); never below MinFontPx.
	FontPx float64
	// BarPx is the thickness of one bar on the page.
	BarPx float64
	// GroupShare is how much of a task's slot its tracks' bars or points
	// span, in the plot; the rest is the gap to the next task, so that a
	// task's tracks sit nearer each other than any other task's.
	GroupShare float64
	// Grid, Axis and Whisker are the colours of the grid lines, the axis
	// and the interval whiskers.
	Grid, Axis, Whisker string
	// Within is the colour that marks the steps a tool made for the agent
	// (the hybrid's run_workflow): the hybrid's own.
	Within string
	// Pass and Fail mark an episode's outcome (a border, a band);
	// PassText and FailText are their darker shades for text, which on
	// white the palette's own are too light to read.
	Pass, Fail, PassText, FailText string
}

// MinFontPx is the smallest text a chart may have, in CSS pixels.
const MinFontPx = 11

// Chart is the style both charts read.
var Chart = ChartStyle{
	FontPx: 12, BarPx: 14, GroupShare: 0.3,
	Grid: "#e6e6e6", Axis: "#333333", Whisker: "#222222",
	Within: ReddishPurple, // the hybrid's colour
	Pass:   BluishGreen, Fail: Vermillion, PassText: "#00704f", FailText: "#b34a00",
}
