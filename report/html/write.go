package html

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"bench/record"
	"bench/report"
	"bench/report/predict"
	"bench/trackfacts"
)

// Options control the page.
type Options struct {
	// Predictions, when not nil, is shown as what was predicted against
	// what happened per task, with the score (predict.Check makes it).
	Predictions *predict.Score
	// TextLimit is the most characters a step's detail shows before it is
	// cut with a note; 0 chooses one by the number of episodes, so that the
	// page stays light (see textLimit).
	TextLimit int
}

var (
	//go:embed page.tmpl
	pageTemplate string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// tmpl is the page's template, parsed once.
var tmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"thousands": thousands,
	"inc":       func(i int) int { return i + 1 },
}).Parse(pageTemplate))

// Write renders the report rep of the runs as one self-contained HTML page:
// the headline tables, the run settings and footnotes, SVG charts, the
// per-task tables, the predictions (when opts has them), the twin runs side
// by side and every episode as a timeline read from its trajectory file.
// rep must be the report of the runs (report.FromData(runs).Report()).
func Write(w io.Writer, rep *report.Report, runs []record.Data, opts Options) error {
	if rep == nil {
		return fmt.Errorf("html: no report to write (want the report of the runs)")
	}
	p, err := newPage(rep, runs, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := tmpl.Execute(bw, p); err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	return bw.Flush()
}

// page is what the template shows.
type page struct {
	CSS         template.CSS
	JS          template.JS
	Runs        []runView
	Tracks      []trackView
	Rows        []rowView
	Pairs       []pairView
	Sequences   []sequenceView
	Predictions *predictView
	Charts      []chart
	Kinds       []kindLabel
	Twins       []twinGroup
	Episodes    []*episode
	Footnotes   []report.Footnote
	Open        bool // episodes start unfolded (few of them); else they are built when opened
	TwinsOpen   bool // twin groups start unfolded (few of them); else they are built when opened
	TextLimit   int
	Models      bool // the rows are of several models: the per-task table has a model column
	Design      []designTable
	Causes      []causeRow
	Delegation  []delegationRow
	// Answers and Comparisons are the pooled answers and the comparisons
	// of settings, as the text report gives them.
	Answers     []string
	Comparisons []report.Table
}

// Up to openEpisodesMax episodes and openTwinsMax twin comparisons start
// unfolded. Past these, each one's body is kept as an inert script
// element's text, which the browser does not parse until it is opened:
// that keeps a page of 1,000 episodes quick to load.
const (
	openEpisodesMax = 12
	openTwinsMax    = 10
)

// newPage computes the page of a report.
func newPage(rep *report.Report, runs []record.Data, opts Options) (*page, error) {
	n := 0
	for _, r := range runs {
		n += len(r.Episodes)
	}
	limit := func(events int) int { return textLimit(opts.TextLimit, n, events) }
	eps, err := loadEpisodes(rep, runs, limit)
	if err != nil {
		return nil, err
	}
	sortEpisodes(eps, rep)
	scale(eps)
	_, tracks := axes(rep)
	colours := trackfacts.Colours(tracks) // as the plot colours them
	p := &page{
		CSS: template.CSS(chartCSS() + pageCSS), JS: template.JS(pageJS),
		Runs: runViews(rep, runs), Tracks: trackViews(rep, colours), Rows: rowViews(rep, eps),
		Pairs: pairViews(rep), Sequences: sequenceViews(rep), Kinds: kindLabels,
		Twins: twinGroups(rep, eps), Episodes: eps, Footnotes: rep.Footnotes,
		Open: len(eps) <= openEpisodesMax, TextLimit: limit(0), Design: designTables(rep),
		Causes: causeRows(rep, eps), Delegation: delegationRows(rep),
		Answers: report.AnswerLines(rep), Comparisons: report.ComparisonTables(rep),
	}
	p.Models = len(rep.Rows) > 0 && shownModel(rep, rep.Rows[0].Model) != ""
	if err := p.lazyBodies(); err != nil {
		return nil, err
	}
	if len(rep.Rows) > 0 {
		p.Charts = []chart{rateChart(rep, colours)}
		if spentTokens(rep) {
			p.Charts = append(p.Charts, tokensChart(rep, colours))
		}
	}
	if opts.Predictions != nil {
		p.Predictions = newPredictView(*opts.Predictions)
	}
	return p, nil
}

// lazyBodies renders the bodies of folded episodes and twin groups ahead,
// to be kept as text until they are opened.
func (p *page) lazyBodies() error {
	pairs := 0
	for _, g := range p.Twins {
		pairs += len(g.Pairs)
	}
	p.TwinsOpen = pairs <= openTwinsMax
	var b strings.Builder
	render := func(name string, data any) (template.HTML, error) {
		b.Reset()
		if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
			return "", fmt.Errorf("writing the HTML report: %w", err)
		}
		if strings.Contains(strings.ToLower(b.String()), "</script") {
			return "", fmt.Errorf("writing the HTML report: a folded %s would end its script element early", name)
		}
		return template.HTML(b.String()), nil
	}
	var err error
	for _, e := range p.Episodes {
		if !p.Open {
			if e.Lazy, err = render("epbody", e); err != nil {
				return err
			}
		}
	}
	for i := range p.Twins {
		if !p.TwinsOpen {
			if p.Twins[i].Lazy, err = render("twinbody", p.Twins[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Text budget: the detail texts of a page hold about pageTextBudget
// characters, each between minTextLimit and maxTextLimit.
const (
	pageTextBudget = 4_000_000
	minTextLimit   = 160
	maxTextLimit   = 2000
)

// textLimit is the most characters of one detail text: fixed when set, else
// an episode's share of the page's budget spread over its events.
func textLimit(fixed, episodes, events int) int {
	if fixed > 0 {
		return fixed
	}
	share := pageTextBudget / max(1, episodes) / max(1, events)
	return min(maxTextLimit, max(minTextLimit, share))
}

// sortEpisodes orders episodes by task, track (the report's order), seed
// and repeat, keeping run order among equals.
func sortEpisodes(eps []*episode, rep *report.Report) {
	_, tracks := axes(rep)
	trackIndex := func(t string) int {
		if i := slices.Index(tracks, t); i >= 0 {
			return i
		}
		return len(tracks)
	}
	slices.SortStableFunc(eps, func(a, b *episode) int {
		return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(trackIndex(a.Track), trackIndex(b.Track)),
			cmp.Compare(a.Track, b.Track), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Repeat, b.Repeat))
	})
}

// scale sets the bar widths of every step: proportional to the largest
// step of the page, by tokens and by time.
func scale(eps []*episode) {
	maxTok, maxMS := 1, int64(1)
	for _, e := range eps {
		for _, s := range e.Steps {
			maxTok, maxMS = max(maxTok, s.Tokens), max(maxMS, s.MS)
		}
	}
	for _, e := range eps {
		for i := range e.Steps {
			s := &e.Steps[i]
			s.TokW = width(float64(s.Tokens) / float64(maxTok))
			s.TimeW = width(float64(s.MS) / float64(maxMS))
		}
	}
}

// width is a bar's width in percent for a share of the largest, at least
// a sliver so that every step shows.
func width(share float64) float64 {
	return max(0.5, float64(int(share*1000+0.5))/10)
}

// runView is one run's settings.
type runView struct {
	ID       string
	Settings [][2]string
}

// runSettings are the settings that define the run, one row each by its
// flag's name, as Run.Settings gives them: the table's (record.Table), so
// that a new setting shows here too. The model and the digests it records
// are left out (the rows above show the model and its digest); a
// setting left empty shows as "default".
func runSettings(r record.Run) [][2]string {
	var out [][2]string
	for _, s := range r.Settings() {
		if d, _ := record.Lookup(s.Name); d.Source == record.FromTable {
			out = append(out, [2]string{s.Name, cmp.Or(s.Value, "default")})
		}
	}
	return out
}

// runViews lists each run's settings.
func runViews(rep *report.Report, runs []record.Data) []runView {
	var out []runView
	for i, d := range runs {
		r := d.Run
		digest := r.ModelDigest
		if digest == "" {
			digest = "unknown"
		}
		model := r.Backend + " " + r.Model
		if r.Model == "" {
			model = "no model"
		}
		seeds := make([]string, len(r.Seeds))
		for i, s := range r.Seeds {
			seeds[i] = strconv.Itoa(s)
		}
		started := ""
		if !r.Started.IsZero() {
			started = r.Started.UTC().Format("2006-01-02 15:04:05 UTC")
		}
		settings := [][2]string{{"folder", d.Dir}, {"bench", r.BenchVersion}, {"model", model}, {"digest", digest}}
		settings = append(settings, runSettings(r)...)
		out = append(out, runView{ID: r.ID, Settings: append(settings, [][2]string{
			{"seeds", strings.Join(seeds, ", ")}, {"tracks", strings.Join(r.Tracks, ", ")},
			{"started", started}, {"episodes", strconv.Itoa(len(d.Episodes))},
		}...)})
		if i < len(rep.Runs) {
			if rp := rep.Runs[i].Replay; rp != nil {
				out[len(out)-1].Settings = append(out[len(out)-1].Settings, [2]string{"replay", rp.String()})
			}
			if note := rep.Runs[i].Incomplete(); note != "" {
				out[len(out)-1].Settings = append(out[len(out)-1].Settings, [2]string{"incomplete", strings.TrimPrefix(note, "incomplete: ")})
			}
		}
	}
	return out
}

// thousands writes n with thin separators: 14956 as 14,956.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
