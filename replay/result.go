package replay

import (
	"bench/record"
)

// Finish closes the replay of the episode once it has ended: it matches
// what is left of the recording (when the end event was not seen), then
// compares the fresh episode ep with the recorded one (see compareEpisode),
// sets ep.Replay to how they compared and returns it. An episode the
// player stopped, which ended on that stop or by itself with recorded
// calls left, gets the exit reason record.ExitDiverged, the stop's words
// as its error and no error kind; one that was interrupted or timed out
// keeps its exit reason. Finish runs once: later calls set and return the
// first result and change nothing else.
func (p *Player) Finish(ep *record.Episode) record.Replay {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		ep.Replay = cloneReplay(p.result)
		return p.result
	}
	p.done = true
	if !p.ended {
		p.ended = true
		p.finishSteps(ep.ExitReason, -1)
	}
	diverted := p.diverts(ep.ExitReason)
	if d := compareEpisode(p.ep, *ep, p.stop == nil); !d.empty() {
		p.note(d, record.Event{Seq: p.end.Seq, Kind: record.DivergenceEpisode, Turn: p.end.Turn}, record.Event{Kind: record.DivergenceEpisode, Turn: p.end.Turn}, p.endAt)
	}
	if diverted {
		ep.ExitReason, ep.Error, ep.ErrorKind = record.ExitDiverged, (&DivergedError{At: *p.stop}).Error(), ""
	}
	p.result = record.Replay{Identical: p.count == 0, Differences: p.count, First: clone(p.first), Stopped: clone(p.stop)}
	ep.Replay = cloneReplay(p.result)
	return p.result
}

// cloneReplay is a copy of r that shares nothing with it.
func cloneReplay(r record.Replay) *record.Replay {
	r.First, r.Stopped = clone(r.First), clone(r.Stopped)
	return &r
}

// clone is a copy of d, or nil.
func clone(d *record.Divergence) *record.Divergence {
	if d == nil {
		return nil
	}
	c := *d
	return &c
}
