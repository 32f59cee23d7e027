package replay

import (
	"bench/record"
)

// Result is how a replayed episode compared with its recording.
type Result struct {
	// Identical says that nothing differed: every event the tools, the
	// tests and the track decided, the verdict and the episode's sums.
	Identical bool `json:"identical"`
	// Differences counts the steps that differed (an event, a request,
	// the verdict counting one each).
	Differences int         `json:"differences,omitempty"`
	First       *Divergence `json:"first,omitempty"`   // the first step that differed
	Stopped     *Divergence `json:"stopped,omitempty"` // where the conversation stopped following the recording
}

// Finish closes the replay of the episode once it has ended: it matches
// what is left of the recording (when the end event was not seen), then
// compares the fresh episode ep with the recorded one (see compareEpisode),
// and returns the Result. An episode the player stopped, which ended on
// that stop or by itself with recorded calls left, gets the exit reason
// ExitDiverged, the stop's words as its error and no error kind; one that
// was interrupted or timed out keeps its exit reason. Finish runs once:
// later calls return the first Result and change nothing.
func (p *Player) Finish(ep *record.Episode) Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return p.result
	}
	p.done = true
	if !p.ended {
		p.ended = true
		p.finishSteps(ep.ExitReason, -1)
	}
	diverted := p.diverts(ep.ExitReason)
	if d := compareEpisode(p.ep, *ep, p.stop == nil); !d.empty() {
		p.note(d, record.Event{Seq: p.end.Seq, Kind: KindEpisode, Turn: p.end.Turn}, record.Event{Kind: KindEpisode, Turn: p.end.Turn}, p.endAt)
	}
	if diverted {
		ep.ExitReason, ep.Error, ep.ErrorKind = ExitDiverged, (&DivergedError{At: *p.stop}).Error(), ""
	}
	p.result = Result{Identical: p.count == 0, Differences: p.count, First: clone(p.first), Stopped: clone(p.stop)}
	return p.result
}

// clone is a copy of d, or nil.
func clone(d *Divergence) *Divergence {
	if d == nil {
		return nil
	}
	c := *d
	return &c
}
