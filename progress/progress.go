// Package progress shows how a run is going, on a terminal or in a log.
package progress

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
	"bench/plan"
	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// Display shows how a run is going: on a terminal one line redrawn in
// place every second and after each episode (a bar, done/total, passed,
// failed, errors, lost to the server, the ETA, the episodes running and
// for how long, and the last finished one); elsewhere, such as a CI log,
// one plain line per episode, and, while an episode runs, a line about it
// at least every heartbeatEvery (how long it has run, its model calls so
// far), so that a log of a slow model never falls silent.
type Display struct {
	mu      sync.Mutex
	stop    chan struct{}
	w       io.Writer
	tty     bool
	width   int // the terminal's columns
	state   progressState
	start   time.Time
	now     func() time.Time
	printed bool
	started map[string]*runningEpisode // by job key
	queued  map[string]runner.Job      // the jobs not started yet, by key, for the ETA
	est     *plan.Estimator            // nil: no ETA
	models  bool                       // name the model in each line: the run has several
}

// heartbeatEvery is the longest a log goes without a line while an episode runs.
const heartbeatEvery = 30 * time.Second

// runningEpisode is an episode a worker has started.
type runningEpisode struct {
	job   runner.Job
	label string
	since time.Time
	calls int       // model calls sent so far, the one awaited included
	said  time.Time // when the log last said something of it
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
	Fresh       int // episodes finished in this session
	Elapsed     time.Duration
	ETA         string   // the smoothed time left and its range, "?" before any is known
	Running     []string // the running episodes and how long each has run, oldest first
	Last        string   // the last finished episode and its outcome
}

// barWidth is the number of cells of the bar.
const barWidth = 20

// New starts the display of a run of total episodes, done of them (passed
// of which passed) already on disk; on a terminal it draws its line at once.
func New(w io.Writer, total, done, passed int) *Display {
	tty, width := false, 0
	if f, ok := inert.Raw(w).(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		tty = true
		width, _, _ = term.GetSize(int(f.Fd()))
		w = f // the redrawn line's own control bytes; what it quotes is escaped (line)
	}
	p := &Display{w: w, tty: tty, width: width, start: time.Now(), now: time.Now, stop: make(chan struct{}), started: map[string]*runningEpisode{},
		queued: map[string]runner.Job{}, state: progressState{Total: total, Done: done, Passed: passed, Failed: done - passed}}
	if tty {
		p.redraw()
		go p.tick()
	}
	return p
}

// Expect gives the progress the jobs still to run and the estimator of
// their wall time, for the ETA; models says the run has several models,
// which each line then names. In a log it starts the heartbeat.
func (p *Display) Expect(pending []runner.Job, est *plan.Estimator, models bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range pending {
		p.queued[j.Key()] = j
	}
	p.est, p.models = est, models
	if !p.tty {
		go p.tick()
	}
}

// tick redraws the terminal line every second until finish; in a log,
// it gives the heartbeat its chance every second.
func (p *Display) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			p.mu.Lock()
			if p.tty {
				p.redraw()
			} else {
				p.beat()
			}
			p.mu.Unlock()
		case <-p.stop:
			return
		}
	}
}

// beat writes a line for each running episode the log has said nothing
// of for heartbeatEvery, oldest first: which episode, how long it has
// run, the model calls it has sent so far, and the ETA; p.mu is held.
func (p *Display) beat() {
	now := p.now()
	for _, e := range p.runningByAge() {
		if now.Sub(e.said) < heartbeatEvery {
			continue
		}
		e.said = now
		line := fmt.Sprintf("… %s: running %s, %s sent so far", e.label, now.Sub(e.since).Round(time.Second), words.Plural(e.calls, "model call"))
		if eta := p.eta(); eta != "?" {
			line += "; ETA " + eta
		}
		fmt.Fprintln(p.w, inert.Line(line))
	}
}

// Call counts a model call a running episode sends.
func (p *Display) Call(j runner.Job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.started[j.Key()]; e != nil {
		e.calls++
	}
}

// eta is the smoothed time left (plan.Estimator) and its range, or "?"
// before any wall time is known; p.mu is held.
func (p *Display) eta() string {
	if p.est == nil {
		return "?"
	}
	var running []plan.Running
	for _, e := range p.runningByAge() {
		running = append(running, plan.Running{Job: e.job, Since: e.since})
	}
	left, ok := p.est.Left(p.now(), slices.Collect(maps.Values(p.queued)), running)
	if !ok {
		return "?"
	}
	return left.String()
}

// redraw rewrites the terminal line.
func (p *Display) redraw() {
	p.state.Elapsed = p.now().Sub(p.start)
	p.state.Running = p.running()
	p.state.ETA = p.eta()
	fmt.Fprintf(p.w, "\r\033[K%s", fitWidth(renderBar(p.state), p.width))
	p.printed = true
}

// Begin notes an episode a worker has started.
func (p *Display) Begin(j runner.Job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	delete(p.queued, j.Key())
	p.started[j.Key()] = &runningEpisode{job: j, label: p.label(j.Task.Name, j.Track, j.Model, j.Seed, j.Repeat), since: now, said: now}
}

// label names an episode: task, track, the model when the run has
// several, and the seed.
func (p *Display) label(task, track, model string, seed, repeat int) string {
	parts := []string{task, track}
	if p.models && model != "" {
		parts = append(parts, model)
	}
	return strings.Join(append(parts, record.TrajectoryName(seed, repeat)), " ")
}

// runningByAge is the started episodes, oldest first; p.mu is held.
func (p *Display) runningByAge() []*runningEpisode {
	return slices.SortedFunc(maps.Values(p.started), func(a, b *runningEpisode) int {
		return cmp.Or(a.since.Compare(b.since), strings.Compare(a.label, b.label))
	})
}

// running lists the started episodes, oldest first, each with how long it
// has run; p.mu is held.
func (p *Display) running() []string {
	eps := p.runningByAge()
	out := make([]string, len(eps))
	for i, e := range eps {
		out[i] = e.label + " " + p.now().Sub(e.since).Round(time.Second).String()
	}
	return out
}

// Episode counts a finished episode and shows it.
func (p *Display) Episode(ep record.Episode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.started, ep.Key())
	if p.est != nil && runner.Finished(ep) && ep.WallMS > 0 {
		p.est.Observe(ep.Task, ep.Track, ep.Model, time.Duration(ep.WallMS)*time.Millisecond)
	}
	if !runner.Finished(ep) { // lost or interrupted: --resume (or the pool) runs it again
		p.queued[ep.Key()] = runner.Job{Task: tasks.Task{Name: ep.Task}, Track: ep.Track, Model: ep.Model, Seed: ep.Seed, Repeat: ep.Repeat}
	}
	p.state = p.state.add(ep)
	p.state.Last = p.label(ep.Task, ep.Track, ep.Model, ep.Seed, ep.Repeat) + " " + verdict(ep)
	if p.tty {
		p.redraw()
		return
	}
	line := p.label(ep.Task, ep.Track, ep.Model, ep.Seed, ep.Repeat)
	fmt.Fprintln(p.w, plainLine(p.state, line, ep, p.eta()))
}

// Done is the number of episodes recorded so far, those of earlier
// sessions included.
func (p *Display) Done() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state.Done
}

// Finish stops the updates and ends the terminal line.
func (p *Display) Finish() {
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
	switch status := ep.Verdict().Status; {
	case status == record.StatusPassed:
		s.Passed++
	case status == record.StatusLost:
		s.Lost++
	case status == record.StatusInterrupted:
		s.Interrupted++
	case endedOnError(status, ep):
		s.Errors++
	default:
		s.Failed++
	}
	s.Last = ep.Task + " " + ep.Track + " " + record.TrajectoryName(ep.Seed, ep.Repeat) + " " + verdict(ep)
	return s
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
	line += fmt.Sprintf("  elapsed %s  ETA %s", s.Elapsed.Round(time.Second), cmp.Or(s.ETA, "?"))
	if len(s.Running) > 0 {
		line += "  running: " + strings.Join(s.Running, ", ")
	}
	if s.Last != "" {
		line += "  last: " + s.Last
	}
	return inert.Line(line)
}

// plainLine is the line printed for one finished episode, named label,
// when the output is not a terminal, with the ETA once one is known, made
// inert (an error can quote a model's bytes).
func plainLine(s progressState, label string, ep record.Episode, eta string) string {
	line := fmt.Sprintf("[%d/%d] %s: %s", s.Done, s.Total, label, episodeSummary(ep))
	if eta != "?" && eta != "" && s.Done < s.Total {
		line += "; ETA " + eta
	}
	return inert.Line(line)
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
	status := ep.Verdict().Status
	if endedOnError(status, ep) {
		return "error"
	}
	return status.String()
}

// endedOnError reports whether ep, whose verdict has status, failed on an
// error of the model or bench: the progress counts it apart from the
// failures of the code.
func endedOnError(status record.Status, ep record.Episode) bool {
	return status == record.StatusFailed && ep.ExitReason == record.ExitError
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
		s += ": " + ep.ErrorLine()
	}
	return s
}
