package runner

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"bench/model"
	"bench/record"
	"bench/tasks"
)

// Session is a run ready to execute, new (NewRun) or resumed (Resume):
// what run.json says, the tasks, the model server to use and the episodes
// already on disk. Making one creates nothing; Execute writes the folder.
type Session struct {
	Dir      string
	Run      record.Run
	Tasks    []tasks.Task     // the run's tasks, in run.json's order
	Model    model.Config     // the server to ask (the first host, the first model); unused when no track calls a model
	Hosts    []string         // the servers of the pool, resolved; one unless --host named several
	Done     []record.Episode // the episodes already recorded (Resume)
	Warnings []string         // what reading the folder found: skipped lines, missing trajectories
	Resumed  bool
}

// NewRun checks spec and makes the Session of a new run: run.json's
// contents (task checksums, prompts digest, the server's resolved address)
// and its folder, spec.Dir or DefaultDir. A run whose tracks call no model
// records no backend, host or model. Nothing is created on disk.
func NewRun(spec Spec) (*Session, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	refs, err := TaskRefs(spec.Tasks)
	if err != nil {
		return nil, err
	}
	started := cmp.Or(spec.Started, time.Now()).UTC()
	r := record.Run{
		Format: record.FormatVersion, BenchVersion: spec.BenchVersion,
		Backend: spec.Model.Backend, Model: spec.Model.Model,
		Seeds: slices.Clone(spec.Seeds), Tasks: refs, Tracks: slices.Clone(spec.Tracks),
		PromptsSHA256: PromptsDigest(spec.Tracks), Started: started,
		Shard: spec.Shard, UID: spec.UID,
		RunSettings: spec.RunSettings, Dimensions: slices.Clone(spec.Dimensions),
	}
	r.WorkflowModel = "" // recorded below when a track calls a model
	mcfg := spec.Model
	mcfg.MaxReplyBytes = spec.MaxReplyBytes
	var hosts []string
	if NeedsAnyModel(spec.Tracks) {
		models := orList(spec.Models, []string{spec.Model.Model})
		r.Model, mcfg.Model = strings.Join(models, ","), models[0]
		r.WorkflowModel = spec.WorkflowModel
		for _, m := range models {
			r.Models = append(r.Models, record.ModelRef{Name: m})
		}
		if hosts, err = resolveHosts(mcfg, spec.Hosts); err != nil {
			return nil, err
		}
		r.Host, mcfg.Host = hosts[0], hosts[0]
		if len(hosts) > 1 {
			r.Hosts = hosts
		}
	} else {
		// No track calls a model: say so, rather than record one that was never asked.
		r.Backend, r.Model, r.ParallelPerHost = "", "", 0
	}
	dir := cmp.Or(spec.Dir, DefaultDir(started, r.Model))
	if sh := spec.Shard; sh != nil && spec.Dir == "" {
		dir += "-shard-" + strconv.Itoa(sh.Index) + "-of-" + strconv.Itoa(sh.Count)
	}
	if err := checkOutDir(dir); err != nil {
		return nil, err
	}
	r.ID = filepath.Base(dir)
	return &Session{Dir: dir, Run: r, Tasks: slices.Clone(spec.Tasks), Model: mcfg, Hosts: hosts}, nil
}

// resolveHosts resolves each host of a pool as cfg's backend reads it
// (model.Config.BaseURL); no hosts = cfg.Host, else the environment's.
func resolveHosts(cfg model.Config, hosts []string) ([]string, error) {
	if len(hosts) == 0 {
		hosts = []string{cfg.Host}
	}
	out := make([]string, 0, len(hosts))
	for _, h := range hosts {
		cfg.Host = h
		u, err := cfg.BaseURL()
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, u) {
			return nil, fmt.Errorf("--host names the server %s twice; give each server once", u)
		}
		out = append(out, u)
	}
	return out, nil
}

// DefaultDir is where a run started at started with modelName is written
// when no folder is named: results/<UTC time>-<model>.
func DefaultDir(started time.Time, modelName string) string {
	safe := strings.NewReplacer(":", "-", "/", "-", "\\", "-", " ", "-", ",", "+").Replace(cmp.Or(modelName, "no-model"))
	return filepath.Join(ResultsDir, started.UTC().Format("20060102T150405Z")+"-"+safe)
}

// TaskRefs names the tasks with their checksums, designs and origins, for run.json.
func TaskRefs(ts []tasks.Task) ([]record.TaskRef, error) {
	refs := make([]record.TaskRef, 0, len(ts))
	for _, t := range ts {
		sum, err := t.Checksum()
		if err != nil {
			return nil, fmt.Errorf("checksumming task %s: %w", t.Name, err)
		}
		refs = append(refs, record.TaskRef{Name: t.Name, Checksum: sum, Archetype: t.Archetype, Answers: t.Answers.String(), Origin: cmp.Or(t.Origin, record.OriginBuiltin)})
	}
	return refs, nil
}

// NeedsAnyModel reports whether any of the tracks calls the model.
func NeedsAnyModel(tracks []string) bool { return slices.ContainsFunc(tracks, NeedsModel) }

// Plan is every episode of the run (of its shard, when it is one), in
// dispatch order.
func (s *Session) Plan() []Job {
	return Shard(s.WholePlan(), s.Run.Shard)
}

// WholePlan is every episode of the run's whole plan, all its shards', in
// dispatch order.
func (s *Session) WholePlan() []Job {
	return PlanVariants(s.Tasks, s.Run.Tracks, s.ModelNames(), s.Run.Variants(), s.Run.Seeds)
}

// ModelNames are the run's models in the order given: one "" when no
// track calls a model.
func (s *Session) ModelNames() []string {
	if len(s.Run.Models) == 0 {
		return []string{s.Run.Model}
	}
	names := make([]string, len(s.Run.Models))
	for i, m := range s.Run.Models {
		names[i] = m.Name
	}
	return names
}

// ToolFreeModels are the models the run asks without tools: the
// hybrid's --workflow-model when it is not also a model of the plan.
func (s *Session) ToolFreeModels() []string {
	if wm := s.Run.WorkflowModel; wm != "" && !slices.Contains(s.ModelNames(), wm) {
		return []string{wm}
	}
	return nil
}

// ServerConfigs are the model.Config of every host and model of the run,
// host by host: what the preflight checks and ConnectInspected ask.
func (s *Session) ServerConfigs() []model.Config {
	names := s.ModelNames()
	if wm := s.Run.WorkflowModel; wm != "" && !slices.Contains(names, wm) {
		names = append(names, wm) // asked by the hybrid's run_workflow, no dimension of the plan
	}
	out := model.Servers(s.Model, s.Hosts, names)
	if len(s.Hosts) > 1 && s.Model.RetryWindow == 0 {
		for i := range out {
			out[i].RetryWindow = PoolRetryWindow
		}
	}
	return out
}

// Slots is how many episodes one server takes at once: the run's
// --parallel-per-host, else --parallel spread over the servers, at least 1.
func (s *Session) Slots() int {
	if s.Run.ParallelPerHost > 0 {
		return s.Run.ParallelPerHost
	}
	return max(1, s.Run.Parallel/max(1, len(s.Hosts)))
}

// Pending is the episodes still to run: those not on disk, and those
// interrupted or lost to the infrastructure.
func (s *Session) Pending() []Job { return Pending(s.Plan(), s.Done) }

// Finished counts the planned episodes that stand on disk, and the passes among them.
func (s *Session) Finished() (done, passed int) {
	inPlan := map[string]bool{}
	for _, j := range s.Plan() {
		inPlan[j.Key()] = true
	}
	for _, ep := range s.Done {
		if inPlan[ep.Key()] && Finished(ep) {
			done++
			if ep.Passed {
				passed++
			}
		}
	}
	return done, passed
}

// ConnectInspected makes a client for every host and model of the run
// when a track calls a model (else it returns nil), from what each server
// of ServerConfigs said of its model (Inspect, as the checks before the
// run asked them, so that a run asks each server once): it must be able to
// think when the run asks it to and to call tools when a track offers
// them, and every host must serve a model the same (model.SameModel, the
// check bench doctor makes too). A new run records each model's digest
// (model.ServerInfo.Identity: its weights'); a resumed one refuses a
// server whose model has changed.
func (s *Session) ConnectInspected(ins []Inspection) ([]Server, error) {
	if !NeedsAnyModel(s.Run.Tracks) {
		return nil, nil
	}
	var servers []Server
	first := map[string]model.ServerInfo{} // model name → what the first host said of it
	for _, in := range ins {
		cfg := in.Config
		if len(servers) == 0 || servers[len(servers)-1].URL != cfg.Host {
			servers = append(servers, Server{URL: cfg.Host, Clients: map[string]model.Chatter{}, Slots: s.Slots()})
		}
		if err := s.check(in); err != nil {
			return nil, err
		}
		if f, ok := first[cfg.Model]; ok {
			if err := model.SameModel(f, in.Info); err != nil {
				return nil, err
			}
		} else {
			first[cfg.Model] = in.Info
		}
		servers[len(servers)-1].Clients[cfg.Model] = in.Client
	}
	if !s.Resumed {
		for i := range s.Run.Models {
			s.Run.Models[i].Digest = first[s.Run.Models[i].Name].Identity()
		}
		if len(s.Run.Models) == 1 {
			s.Run.ModelDigest = s.Run.Models[0].Digest
		}
		if wm := s.Run.WorkflowModel; wm != "" {
			s.Run.WorkflowModelDigest = first[wm].Identity()
		}
	}
	return servers, nil
}

// check says whether the model one server described will do for the run.
func (s *Session) check(in Inspection) error {
	cfg, info := in.Config, in.Info
	if in.Client == nil {
		return in.Err
	}
	if in.Err != nil {
		return fmt.Errorf("asking the server %s about %s: %w", cfg.Host, cfg.Model, in.Err)
	}
	if was := s.recordedDigest(cfg.Model); s.Resumed && was != "" && !info.Matches(was) {
		return fmt.Errorf("cannot resume %s: the server's %s is now %s, the run started with %s", s.Dir, cfg.Model, info.Identity(), was)
	}
	tools := slices.ContainsFunc(s.Run.Tracks, UsesTools) && !slices.Contains(s.ToolFreeModels(), cfg.Model)
	return info.Require(s.Run.Think, tools)
}

// recordedDigest is the digest run.json holds for model name.
func (s *Session) recordedDigest(name string) string {
	for _, m := range s.Run.Models {
		if m.Name == name && m.Digest != "" {
			return m.Digest
		}
	}
	if name == s.Run.WorkflowModel {
		return s.Run.WorkflowModelDigest
	}
	return s.Run.ModelDigest
}
