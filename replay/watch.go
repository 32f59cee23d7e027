package replay

import (
	"bench/record"
)

// Trajectory is where the runner records one episode's events: a
// record.Recorder with the write error it kept and a Close (what
// runner.Trajectory is).
type Trajectory interface {
	record.Recorder
	Err() error
	Close() error
}

// Watch wraps t, the trajectory the episode records into, so that the
// player sees every fresh event before t writes it (the runner passes the
// wrapped one to the episode). The events are written as they come, but
// for the end event of an episode the player stopped, which says
// record.ExitDiverged and where. The wrapper has t's SHA256 when t has one.
func (p *Player) Watch(t Trajectory) Trajectory { return &watched{Trajectory: t, p: p} }

// watched is a trajectory watched by a player.
type watched struct {
	Trajectory
	p *Player
}

// Record shows ev to the player and records it.
func (w *watched) Record(ev record.Event) { w.Trajectory.Record(w.p.observe(ev)) }

// SHA256 is the digest of what the wrapped trajectory wrote, when it can
// tell (as *record.Trajectory can); "" when it cannot.
func (w *watched) SHA256() string {
	if d, ok := w.Trajectory.(interface{ SHA256() string }); ok {
		return d.SHA256()
	}
	return ""
}
