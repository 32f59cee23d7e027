package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"bench/internal/words"
	"bench/record"
)

// progress shows how a run is going: on a terminal one line that updates in
// place (done/total, passes, elapsed, ETA) every second and after each
// episode; elsewhere a line per episode.
type progress struct {
	mu      sync.Mutex
	stop    chan struct{}
	w       io.Writer
	tty     bool
	total   int
	done    int
	passed  int
	fresh   int // episodes finished in this session, for the ETA
	start   time.Time
	now     func() time.Time
	printed bool
}

func newProgress(w io.Writer, total, done, passed int) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	p := &progress{w: w, tty: tty, total: total, done: done, passed: passed, start: time.Now(), now: time.Now, stop: make(chan struct{})}
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
	fmt.Fprintf(p.w, "\r\033[K%s", p.status())
	p.printed = true
}

// episode counts a finished episode and shows it.
func (p *progress) episode(ep record.Episode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.fresh++
	if ep.Passed {
		p.passed++
	}
	if p.tty {
		p.redraw()
		return
	}
	fmt.Fprintf(p.w, "[%d/%d] %s %s %s: %s\n", p.done, p.total, ep.Task, ep.Track, record.TrajectoryName(ep.Seed, ep.Repeat), episodeSummary(ep))
}

// status is the one-line summary of the run so far.
func (p *progress) status() string {
	elapsed := p.now().Sub(p.start)
	eta := "?"
	if p.fresh > 0 {
		left := time.Duration(float64(elapsed) / float64(p.fresh) * float64(p.total-p.done))
		eta = left.Round(time.Second).String()
	}
	return fmt.Sprintf("%d/%d episodes, %d passed, elapsed %s, ETA %s", p.done, p.total, p.passed, elapsed.Round(time.Second), eta)
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

// episodeSummary is one episode's outcome in a few words.
func episodeSummary(ep record.Episode) string {
	verdict := "failed"
	if ep.Passed {
		verdict = "passed"
	}
	s := fmt.Sprintf("%s (%d/%d tests, exit %s, %s, %s, %s)", verdict, ep.TestsPassed, ep.TestsTotal, ep.ExitReason, words.Plural(ep.Turns, "turn"), words.Plural(ep.PromptTokens+ep.CompletionTokens, "token"), (time.Duration(ep.WallMS) * time.Millisecond).String())
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
