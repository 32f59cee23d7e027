package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"bench/internal/inert"
	"bench/internal/words"
	"bench/record"
	"bench/runner"
)

// progress shows how a run is going: on a terminal one line redrawn in
// place every second and after each episode (a bar, done/total, passed,
// failed, errors, lost to the server, the ETA, the episodes running and
// for how long, and the last finished one); elsewhere, such as a CI log,
// one plain line per episode.
type progress struct {
	mu      sync.Mutex
	stop    chan struct{}
	w       io.Writer
	tty     bool
	width   int // the terminal's columns
	state   progressState
	done    int // state.Done, read by run.go after the run
	start   time.Time
	now     func() time.Time
	printed bool
	started map[string]runningEpisode // by job key
}

// runningEpisode is an episode a worker has started.
type runningEpisode struct {
	label string
	since time.Time
}

// progressState is what the progress line shows; the rendering functions
// read only it, so tests can draw any state.
type progressState struct {
	Total, Done int
	Passed      int
	Failed      int // finished and failed, not counting errors
	Errors      int // ended by an error of the episode (not the server's)
	Lost        int // ended by the server or the network: not counted, redone by --resume
	Interrupted int // cut short by an interrupt: not counted, redone by --resume
	Fresh       int // episodes finished in this session, for the ETA
	Elapsed     time.Duration
	Running     []string // the running episodes and how long each has run, oldest first
	Last        string   // the last finished episode and its outcome
}

// barWidth is the number of cells of the bar.
const barWidth = 20

func newProgress(w io.Writer, total, done, passed int) *progress {
	tty, width := false, 0
	if f, ok := inert.Raw(w).(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		tty = true
		width, _, _ = term.GetSize(int(f.Fd()))
		w = f // the redrawn line's own control bytes; what it quotes is escaped (line)
	}
	p := &progress{w: w, tty: tty, width: width, start: time.Now(), now: time.Now, stop: make(chan struct{}), started: map[string]runningEpisode{},
		state: progressState{Total: total, Done: done, Passed: passed, Failed: done - passed}, done: done}
	if tty {
		p.redraw()
		go p.tick()
	}
	return p
}

// tick redraws the terminal line every second until finish.
func (p *progress) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			p.mu.Lock()
			p.redraw()
			p.mu.Unlock()
		case <-p.stop:
			return
		}
	}
}

// redraw rewrites the terminal line.
func (p *progress) redraw() {
	p.state.Elapsed = p.now().Sub(p.start)
	p.state.Running = p.running()
	fmt.Fprintf(p.w, "\r\033[K%s", fitWidth(renderBar(p.state), p.width))
	p.printed = true
}

// begin notes an episode a worker has started.
func (p *progress) begin(j runner.Job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started[j.Key()] = runningEpisode{label: j.Task.Name + " " + j.Track + " " + record.TrajectoryName(j.Seed, j.Repeat), since: p.now()}
}

// running lists the started episodes, oldest first, each with how long it
// has run; p.mu is held.
func (p *progress) running() []string {
	eps := slices.SortedFunc(maps.Values(p.started), func(a, b runningEpisode) int {
		return cmp.Or(a.since.Compare(b.since), strings.Compare(a.label, b.label))
	})
	out := make([]string, len(eps))
	for i, e := range eps {
		out[i] = e.label + " " + p.now().Sub(e.since).Round(time.Second).String()
	}
	return out
}

// episode counts a finished episode and shows it.
func (p *progress) episode(ep record.Episode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.started, ep.Key())
	p.state = p.state.add(ep)
	p.done = p.state.Done
	if p.tty {
		p.redraw()
		return
	}
	fmt.Fprintln(p.w, plainLine(p.state, ep))
}

// finish stops the updates and ends the terminal line.
func (p *progress) finish() {
	close(p.stop)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.printed {
		fmt.Fprintln(p.w)
	}
}

// add counts one finished episode.
func (s progressState) add(ep record.Episode) progressState {
	s.Done++
	s.Fresh++
	switch verdict(ep) {
	case "passed":
		s.Passed++
	case "lost":
		s.Lost++
	case "interrupted":
		s.Interrupted++
	case "error":
		s.Errors++
	default:
		s.Failed++
	}
	s.Last = ep.Task + " " + ep.Track + " " + record.TrajectoryName(ep.Seed, ep.Repeat) + " " + verdict(ep)
	return s
}

// eta is the time left at the pace of this session, or "?" before its
// first episode.
func (s progressState) eta() string {
	if s.Fresh == 0 {
		return "?"
	}
	left := time.Duration(float64(s.Elapsed) / float64(s.Fresh) * float64(s.Total-s.Done))
	return left.Round(time.Second).String()
}

// renderBar is the terminal line: a bar and the counts, made inert (names
// and errors can hold a model's bytes).
func renderBar(s progressState) string {
	filled := 0
	if s.Total > 0 {
		filled = min(barWidth, s.Done*barWidth/s.Total)
	}
	bar := strings.Repeat("█", filled) + strings.Repeat("░", barWidth-filled)
	line := fmt.Sprintf("%s %d/%d  passed %d  failed %d  errors %d  lost %d", bar, s.Done, s.Total, s.Passed, s.Failed, s.Errors, s.Lost)
	if s.Interrupted > 0 {
		line += fmt.Sprintf("  interrupted %d", s.Interrupted)
	}
	line += fmt.Sprintf("  elapsed %s  ETA %s", s.Elapsed.Round(time.Second), s.eta())
	if len(s.Running) > 0 {
		line += "  running: " + strings.Join(s.Running, ", ")
	}
	if s.Last != "" {
		line += "  last: " + s.Last
	}
	return inert.Line(line)
}

// plainLine is the line printed for one finished episode when the output
// is not a terminal, made inert (an error can quote a model's bytes).
func plainLine(s progressState, ep record.Episode) string {
	return inert.Line(fmt.Sprintf("[%d/%d] %s %s %s: %s", s.Done, s.Total, ep.Task, ep.Track, record.TrajectoryName(ep.Seed, ep.Repeat), episodeSummary(ep)))
}

// fitWidth cuts line to width columns (counting runes), marking the cut
// with "…", so that the redrawn line never wraps; width 0 means no limit.
func fitWidth(line string, width int) string {
	if width <= 0 || utf8.RuneCountInString(line) < width {
		return line
	}
	r := []rune(line)
	return string(r[:width-2]) + "…"
}

// verdict is an episode's outcome in one word, as its line counts
// (record.Episode.Verdict; the report checks its trajectory too): passed,
// failed, error (a failure that ended on an error of the model or bench),
// inconsistent, interrupted, or lost (to the server or the network; not
// counted, redone by --resume).
func verdict(ep record.Episode) string {
	switch v := ep.Verdict(); {
	case v.Status == record.StatusFailed && ep.ExitReason == record.ExitError:
		return "error"
	default:
		return v.Status.String()
	}
}

// episodeSummary is one episode's outcome in a few words.
func episodeSummary(ep record.Episode) string {
	s := fmt.Sprintf("%s (%d/%d tests, exit %s, %s, %s, %s)", verdict(ep), ep.TestsPassed, ep.TestsTotal, ep.ExitReason, words.Plural(ep.Turns, "turn"), words.Plural(ep.PromptTokens+ep.CompletionTokens, "token"), (time.Duration(ep.WallMS) * time.Millisecond).String())
	switch ep.Verdict().Status {
	case record.StatusLost:
		s = "lost to the server, to be redone by --resume: " + s
	case record.StatusInterrupted:
		s = "interrupted, to be redone by --resume: " + s
	}
	if ep.Error != "" {
		s += ": " + firstLine(ep.Error)
	}
	return s
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
