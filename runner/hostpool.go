package runner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"bench/model"
	"bench/record"
)

// PoolRetryWindow is how long a model client waits for a server that
// refuses connections when the run has other servers: past it the episode
// is lost, the server taken out of the pool, and its episodes go to the
// others (a run of one server waits model.DefaultRetryWindow).
const PoolRetryWindow = 5 * time.Second

// Server is one model server of a run's pool: its address, a client per
// model name, and how many episodes it takes at once.
type Server struct {
	URL     string
	Clients map[string]model.Chatter // by model name; a job whose model is missing uses Config.Model
	Slots   int
}

// PoolOptions are how RunPool reports: each job as a worker starts it
// (Start), each model call a job's episode sends (Call, its workflow
// model's included), each finished episode that stands (Progress) and a
// server taken out of the pool (Warn); any may be nil.
type PoolOptions struct {
	Start    func(Job)
	Call     func(Job)
	Progress func(record.Episode)
	Warn     func(string)
}

// RunPool runs jobs on the servers, each taking at most its Slots episodes
// at once, work going to whichever server is free; the jobs of one twin
// group (task, track, model and seed) run on the same server. Every
// finished episode is appended to sink and records the server's URL.
//
// A server whose episodes are lost to the infrastructure (BreakerThreshold
// in a row, or one server refusing connections when there are others) is
// taken out of the pool with a warning; its lost episodes are run again on
// the others (the later line in episodes.jsonl stands). When no server is
// left no further job starts, the running ones finish, and RunPool returns
// a *StopError; so it does at once when a server refuses a request for a
// reason of the setup (stopsAtOnce). Once ctx is cancelled no further job starts; running ones
// are recorded as interrupted. A failure to append stops the scheduling
// and is returned as a *StopError.
func RunPool(ctx context.Context, cfg Config, servers []Server, sink Sink, jobs []Job, opts PoolOptions) error {
	p := newScheduler(jobs, len(servers))
	defer context.AfterFunc(ctx, p.broadcast)()
	var wg sync.WaitGroup
	for s, srv := range servers {
		for range max(srv.Slots, 1) {
			wg.Go(func() {
				for {
					j, ok := p.next(ctx, s)
					if !ok {
						return
					}
					if opts.Start != nil {
						opts.Start(j)
					}
					ep, full := runOne(ctx, countCalls(serverConfig(cfg, srv, j), j, opts.Call), sink, j)
					p.finish(s, j, ep, full, func(requeued bool) {
						if err := sink.Append(ep); err != nil {
							// Not on disk: the episode is lost, and --resume redoes it.
							unrecorded := ep
							loseToFault(&unrecorded, "recording the episode in "+record.EpisodesFile, err)
							p.fail(&StopError{Lost: 1, Last: unrecorded, NoSpace: isNoSpace(err)})
							return
						}
						if !requeued && opts.Progress != nil {
							opts.Progress(ep)
						}
					}, func(msg string) {
						if opts.Warn != nil {
							opts.Warn(fmt.Sprintf("%s taken out of the pool: %s", servers[s].URL, msg))
						}
					})
				}
			})
		}
	}
	wg.Wait()
	return p.err
}

// serverConfig is cfg for job j on server srv: the server's client for the
// job's model (and for the workflow model, when the run names one) and its
// URL, which the episode records.
func serverConfig(cfg Config, srv Server, j Job) Config {
	cfg.Host = srv.URL
	if c, ok := srv.Clients[j.Model]; ok {
		cfg.Model = c
	}
	if c, ok := srv.Clients[cfg.WorkflowModel]; ok {
		cfg.WorkflowClient = c
	}
	return cfg
}

// scheduler hands out jobs to the workers of each server and keeps the
// pool's health; every field is guarded by mu.
type scheduler struct {
	mu      sync.Mutex
	wake    *sync.Cond
	queue   []Job          // jobs not started, in plan order (redone lost ones first)
	pinned  map[string]int // twin group → the server that ran its first job
	out     []bool         // servers taken out of the pool
	health  []health
	left    int // servers in the pool
	running int
	faults  int // episodes in a row lost to faults of the machine, on any server
	stopped bool
	err     error
}

// health is a server's run of lost episodes, and their jobs.
type health struct {
	lost []Job
	last record.Episode
}

func newScheduler(jobs []Job, servers int) *scheduler {
	p := &scheduler{queue: slices.Clone(jobs), pinned: map[string]int{}, out: make([]bool, servers), health: make([]health, servers), left: servers}
	p.wake = sync.NewCond(&p.mu)
	return p
}

// broadcast wakes every waiting worker (ctx was cancelled).
func (p *scheduler) broadcast() {
	p.mu.Lock()
	p.wake.Broadcast()
	p.mu.Unlock()
}

// next blocks until there is a job server s may run, and takes it; false
// when the run is over for s: nothing left, stopped, cancelled or s out.
func (p *scheduler) next(ctx context.Context, s int) (Job, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.stopped || ctx.Err() != nil || p.out[s] {
			return Job{}, false
		}
		for i, j := range p.queue {
			k := j.twinKey()
			if owner, ok := p.pinned[k]; ok && owner != s && !p.out[owner] {
				continue // its twin ran on a server still in the pool
			}
			p.pinned[k] = s
			p.queue = slices.Delete(p.queue, i, i+1)
			p.running++
			return j, true
		}
		if len(p.queue) == 0 && p.running == 0 {
			return Job{}, false
		}
		p.wake.Wait() // a running job may yet be given back
	}
}

// finish books episode ep of job j, run on server s (full: it met a full
// disk): record is called with whether the job goes back in the queue,
// then the health of the server, or of the machine, is updated; a server
// taken out is reported through warn.
func (p *scheduler) finish(s int, j Job, ep record.Episode, full bool, record func(requeued bool), warn func(string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.wake.Broadcast()
	p.running--
	h := &p.health[s]
	if !ep.Lost() {
		h.lost, h.last, p.faults = nil, ep, 0
		record(false)
		return
	}
	switch {
	case full || stopsAtOnce(ep):
		record(false)
		p.stop(&StopError{Lost: 1, Last: ep, NoSpace: full})
		return
	case ep.ErrorKind == errFault:
		// The machine's, not the server's: the server stays in the pool.
		p.faults++
		record(false)
		if p.faults >= BreakerThreshold {
			p.stop(&StopError{Lost: p.faults, Last: ep})
		}
		return
	}
	h.lost, h.last = append(h.lost, j), ep
	takeOut := !p.out[s] && (len(h.lost) >= BreakerThreshold || (p.left > 1 && ep.ErrorKind == errUnreachable))
	requeue := p.out[s] || takeOut
	if requeue && p.left-boolInt(takeOut) == 0 {
		requeue = false // no server left to run it
	}
	record(requeue)
	if !takeOut {
		if p.out[s] && requeue {
			p.queue = append([]Job{j}, p.queue...)
		}
		return
	}
	p.out[s] = true
	p.left--
	if p.left == 0 {
		p.stopped = true
		if p.err == nil {
			p.err = &StopError{Lost: len(h.lost), Last: ep}
		}
		return
	}
	warn(fmt.Sprintf("%d of its episodes in a row were lost (last: %s, %s: %s); they and the rest go to the other servers",
		len(h.lost), ep.Key(), ep.ErrorKind, ep.ErrorLine()))
	p.queue = append(slices.Clone(h.lost), p.queue...)
}

// stop stops the scheduling with err, unless it has stopped already;
// called within finish.
func (p *scheduler) stop(err error) {
	if p.err == nil {
		p.err = err
	}
	p.stopped = true
}

// fail stops the scheduling with err (a failed append); called within finish.
func (p *scheduler) fail(err error) {
	if p.err == nil {
		p.err = err
	}
	p.stopped = true
}

// errUnreachable is the error kind of a server that refused or dropped the connection.
const errUnreachable = record.ErrorUnreachable

// errFault is the error kind of a fault of the machine.
const errFault = record.ErrorFault

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
