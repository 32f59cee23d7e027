package replay

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"bench/model"
	"bench/record"
)

// Player serves the model's side of one recorded episode and compares its
// fresh side with the recording (see the package documentation). It is
// the episode's model.Chatter; Watch wraps the episode's trajectory. A
// Player serves one episode once, and is safe for concurrent use.
type Player struct {
	mu  sync.Mutex
	ep  record.Episode // the recorded episode
	rec []record.Event // the recorded events before the end event
	end record.Event   // the recorded end event

	pos   int  // the next recorded event to match
	fresh int  // the fresh events seen so far
	next  call // what the next Chat answers
	ended bool // the fresh end event was seen
	endAt int  // the fresh end event's seq; -1 before it

	done   bool          // Finish has run
	result record.Replay // what it returned

	first *record.Divergence
	count int
	stop  *record.Divergence
}

// call is what the next Chat answers: the recorded response at rec[at]
// (serve), the recorded failure of the request at rec[at] (fail), or
// nothing, when no fresh request was matched (none).
type call struct {
	what int
	at   int
}

const (
	callNone = iota
	callServe
	callFail
)

var _ model.Chatter = (*Player)(nil)

// NewPlayer makes the player of recorded episode ep from the events of its
// trajectory, which must be whole (see Load, which reads and checks them).
func NewPlayer(ep record.Episode, events []record.Event) (*Player, error) {
	if problem := checkEvents(ep, events); problem != "" {
		return nil, fmt.Errorf("cannot replay %s: its trajectory %s", ep.Key(), problem)
	}
	n := len(events) - 1
	return &Player{ep: ep, rec: events[:n:n], end: events[n], endAt: -1}, nil
}

// Recorded is the recorded episode the player serves.
func (p *Player) Recorded() record.Episode { return p.ep }

// Chat answers the request the track has just recorded with the recorded
// reply to it: its message and tool calls, the server's token counts, the
// offline estimates and the stop reason as recorded; its duration is the
// replay's own, and no model time or retries are reported. A recorded call
// that failed with the model's own error fails again with that error. Once
// the conversation cannot follow the recording, Chat returns a
// *DivergedError.
func (p *Player) Chat(ctx context.Context, req model.Request) (model.Response, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return model.Response{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		return model.Response{}, &DivergedError{At: *p.stop}
	}
	c := p.next
	p.next = call{}
	switch c.what {
	case callServe:
		return response(p.rec[c.at-1], p.rec[c.at], time.Since(start)), nil
	case callFail:
		if err := p.failure(); err != nil {
			return model.Response{}, err
		}
		d := record.Divergence{Seq: p.rec[c.at].Seq, FreshSeq: -1, Turn: p.rec[c.at].Turn, Kind: record.EventRequest, Within: p.rec[c.at].Within,
			Fields: "reply", Want: fmt.Sprintf("%q", "none: "+p.endError()), Got: `"a call to answer"`,
			Stop: fmt.Sprintf("the recording ends inside this call (the episode ended %s), so no reply can be replayed", p.ep.ExitReason)}
		p.stopAt(d)
		return model.Response{}, &DivergedError{At: d}
	}
	d := record.Divergence{Seq: -1, FreshSeq: -1, Kind: record.EventRequest, Fields: "request",
		Want: `"a request event before the call"`, Got: `"a call the trajectory shows no request for"`,
		Stop: "the track called the model without recording its request, so the call cannot be matched to the recording"}
	p.stopAt(d)
	return model.Response{}, &DivergedError{At: d}
}

// response is the recorded response resp to the recorded request req, as
// a client would have returned it; took is the time the replay took.
func response(req, resp record.Event, took time.Duration) model.Response {
	msg := model.Message{Role: model.RoleAssistant}
	if r := resp.Reply; r != nil {
		msg.Content = r.Content
		if r.Role != "" {
			msg.Role = r.Role
		}
		for _, tc := range r.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{Name: tc.Name, Arguments: tc.Arguments})
		}
	}
	return model.Response{
		Message: msg,
		Usage: model.Usage{
			PromptTokens: resp.PromptTokens, CompletionTokens: resp.CompletionTokens,
			EstPromptTokens: req.EstTokens, EstCompletionTokens: resp.EstCompletion,
		},
		Wall:       took,
		DoneReason: resp.StopReason,
	}
}

// failure is the error a recorded call failed with, when the episode
// stood by it (the model's own failure or a limit it ran into, such as
// reply_too_large): the same kind, so the fresh episode ends as the
// recorded one did; nil for any other ending.
func (p *Player) failure() error {
	if p.ep.ExitReason != record.ExitError {
		return nil
	}
	kind := model.StandingKind(p.ep.ErrorKind)
	if kind == nil {
		return nil
	}
	return &recordedFailure{msg: p.end.Error, kind: kind}
}

// recordedFailure is a recorded model call's failure served again.
type recordedFailure struct {
	msg  string
	kind error
}

func (f *recordedFailure) Error() string {
	return "replayed the recorded failure of this model call: " + f.msg
}

// Unwrap gives the failure its recorded kind (model.Kind).
func (f *recordedFailure) Unwrap() error {
	return &model.Error{Kind: f.kind, Backend: "replay", Detail: f.msg}
}

// observe matches a fresh event against the recording, before it is
// written, and returns it as it is to be written: the end event of an
// episode the player stopped says so (ExitDiverged).
func (p *Player) observe(ev record.Event) record.Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	seq := p.fresh
	p.fresh++
	if ev.Kind == record.EventEnd {
		return p.atEnd(ev, seq)
	}
	if p.stop != nil {
		return ev // what the track records on its way out is not compared
	}
	if ev.Kind == record.EventRequest {
		p.atRequest(ev, seq)
	} else {
		p.atStep(ev, seq)
	}
	return ev
}

// atStep matches an event between two requests with the recorded event
// in the same place.
func (p *Player) atStep(ev record.Event, seq int) {
	if p.pos < len(p.rec) && p.rec[p.pos].Kind != record.EventRequest {
		want := p.rec[p.pos]
		p.pos++
		if d := compareEvent(want, ev); !d.empty() {
			p.note(d, want, ev, seq)
		}
		return
	}
	d := &diff{}
	d.add("event", `"none here"`, summary(ev))
	p.note(d, record.Event{Seq: -1}, ev, seq)
}

// atRequest matches a fresh request with the next recorded request and
// decides what the call gets: the recorded reply, the recorded failure,
// or the end of the replay.
func (p *Player) atRequest(ev record.Event, seq int) {
	j := p.nextRequest()
	p.skip(j)
	if j == len(p.rec) {
		d := record.Divergence{Seq: -1, FreshSeq: seq, Turn: ev.Turn, Kind: ev.Kind, Within: ev.Within, Fields: "request",
			Want: fmt.Sprintf("%q", fmt.Sprintf("no further call (the recording made %d)", p.ep.ModelCalls)), Got: `"another model call"`,
			Stop: p.noMoreCalls()}
		p.stopAt(d)
		return
	}
	want := p.rec[j]
	p.pos = j + 1
	d, stop := compareRequest(want, ev)
	if !d.empty() {
		dv := p.note(d, want, ev, seq)
		if stop != "" {
			dv.Stop = stop
			p.stop = dv
			return
		}
	}
	if j+1 < len(p.rec) && p.rec[j+1].Kind == record.EventResponse {
		p.next = call{what: callServe, at: j + 1}
	} else {
		p.next = call{what: callFail, at: j}
	}
}

// endError is the first line of the recorded end event's error.
func (p *Player) endError() string {
	line, _, _ := strings.Cut(p.end.Error, "\n")
	return line
}

// noMoreCalls says why a call past the recording's last cannot be
// answered: the recorded track ended by itself before it, or the
// recording ends early (an error, a time limit).
func (p *Player) noMoreCalls() string {
	if endedByItself(p.ep.ExitReason) {
		return "the replayed track asks for more model calls than were recorded"
	}
	why := string(p.ep.ExitReason)
	if e := p.endError(); e != "" {
		why += ": " + e
	}
	return fmt.Sprintf("the recording ends before this call: the recorded episode ended %s", why)
}

// nextRequest is the index of the next recorded request from pos, or
// len(rec) when there is none.
func (p *Player) nextRequest() int {
	for j := p.pos; j < len(p.rec); j++ {
		if p.rec[j].Kind == record.EventRequest {
			return j
		}
	}
	return len(p.rec)
}

// skip notes the recorded events from pos up to j that the fresh side did
// not produce, one divergence for the first of them, and moves pos to j.
func (p *Player) skip(j int) {
	if p.pos >= j {
		return
	}
	want := p.rec[p.pos]
	d := &diff{}
	d.add("event", summary(want), fmt.Sprintf("%q", fmt.Sprintf("none (%d recorded events missing here)", j-p.pos)))
	p.note(d, want, record.Event{}, -1)
	p.pos = j
}

// atEnd closes the matching when the fresh end event comes: a fresh track
// that ended by itself before the recorded calls were all asked stops the
// replay (fewer calls), and an end event of an episode the player stopped
// gets ExitDiverged and the stop's words.
func (p *Player) atEnd(ev record.Event, seq int) record.Event {
	if !p.ended {
		p.ended, p.endAt = true, seq
		p.finishSteps(ev.Exit, seq)
	}
	if p.diverts(ev.Exit) {
		ev.Exit, ev.Error = record.ExitDiverged, (&DivergedError{At: *p.stop}).Error()
	}
	return ev
}

// finishSteps matches what is left of the recording once the fresh track
// has ended with exit: a recorded request left over stops the replay when
// the fresh track ended by itself (it asked for fewer calls); any other
// event left over is noted.
func (p *Player) finishSteps(exit record.ExitReason, seq int) {
	if p.stop != nil {
		return
	}
	j := p.nextRequest()
	if j < len(p.rec) && endedByItself(exit) {
		want := p.rec[j]
		d := record.Divergence{Seq: want.Seq, FreshSeq: seq, Turn: want.Turn, Kind: want.Kind, Within: want.Within, Fields: "request",
			Want: fmt.Sprintf("%q", fmt.Sprintf("a further call (the recording made %d)", p.ep.ModelCalls)),
			Got:  fmt.Sprintf("%q", "the end of the episode ("+exit+")"),
			Stop: "the replayed track ended before asking for every recorded call"}
		p.skip(j)
		p.stopAt(d)
		return
	}
	p.skip(len(p.rec))
}

// endedByItself reports whether a track ended of its own accord, rather
// than on an error, an interrupt or a time limit.
func endedByItself(exit record.ExitReason) bool {
	switch exit {
	case record.ExitDone, record.ExitMaxTurns, record.ExitTokenBudget:
		return true
	}
	return false
}

// diverts reports whether an episode that ended with exit ends with
// ExitDiverged: it was stopped by the player, and ended on that (an error)
// or by itself with calls left over. An interrupt or a timeout stays.
func (p *Player) diverts(exit record.ExitReason) bool {
	return p.stop != nil && (exit == record.ExitError || endedByItself(exit))
}

// note counts a divergence of the fresh event got (seq; -1 for none)
// from the recorded want (Seq -1 for none), keeps it when it is the
// first, and returns it. The step is described by the fresh event, or by
// the recorded one when the fresh side has none.
func (p *Player) note(d *diff, want, got record.Event, seq int) *record.Divergence {
	at := got
	if seq < 0 {
		at = want
	}
	dv := &record.Divergence{Seq: want.Seq, FreshSeq: seq, Turn: at.Turn, Kind: at.Kind, Within: at.Within, Tool: at.Tool}
	d.fill(dv)
	p.count++
	if p.first == nil {
		p.first = dv
	}
	return dv
}

// stopAt stops the replay at d, which counts as a divergence.
func (p *Player) stopAt(d record.Divergence) {
	p.count++
	p.stop = &d
	if p.first == nil {
		p.first = p.stop
	}
}
