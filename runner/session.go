package runner

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
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
	Model    model.Config     // the server to ask; unused when no track calls a model
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
		Temperature: spec.Temperature, NumCtx: spec.NumCtx, TopP: spec.TopP, Think: spec.Think,
		MaxTokens: spec.MaxTokens, TokenLimit: spec.TokenLimit, MaxTurns: spec.MaxTurns, Tries: spec.Tries,
		Seeds: slices.Clone(spec.Seeds), Tasks: refs, Tracks: slices.Clone(spec.Tracks), Posture: spec.Posture,
		PromptsSHA256:    PromptsDigest(spec.Tracks),
		EpisodeTimeoutMS: spec.EpisodeTimeout.Milliseconds(),
		Parallel:         spec.Parallel, Started: started,
	}
	mcfg := spec.Model
	if NeedsAnyModel(spec.Tracks) {
		if r.Host, err = mcfg.BaseURL(); err != nil {
			return nil, err
		}
		mcfg.Host = r.Host
	} else {
		// No track calls a model: say so, rather than record one that was never asked.
		r.Backend, r.Model = "", ""
	}
	dir := cmp.Or(spec.Dir, DefaultDir(started, r.Model))
	if err := checkOutDir(dir); err != nil {
		return nil, err
	}
	r.ID = filepath.Base(dir)
	return &Session{Dir: dir, Run: r, Tasks: slices.Clone(spec.Tasks), Model: mcfg}, nil
}

// DefaultDir is where a run started at started with modelName is written
// when no folder is named: results/<UTC time>-<model>.
func DefaultDir(started time.Time, modelName string) string {
	safe := strings.NewReplacer(":", "-", "/", "-", "\\", "-", " ", "-").Replace(cmp.Or(modelName, "no-model"))
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
		refs = append(refs, record.TaskRef{Name: t.Name, Checksum: sum, Archetype: t.Archetype, Answers: t.AnswersString(), Origin: cmp.Or(t.Origin, record.OriginBuiltin)})
	}
	return refs, nil
}

// NeedsAnyModel reports whether any of the tracks calls the model.
func NeedsAnyModel(tracks []string) bool { return slices.ContainsFunc(tracks, NeedsModel) }

// Plan is every episode of the run, in dispatch order.
func (s *Session) Plan() []Job { return Plan(s.Tasks, s.Run.Tracks, s.Run.Seeds) }

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

// Connect makes the model client when a track calls a model (else it
// returns nil) and asks the server about the model: it must be able to
// think when the run asks it to and to call tools when a track offers them;
// a new run records its digest, a resumed one refuses a server whose
// weights have changed.
func (s *Session) Connect(ctx context.Context) (model.Chatter, error) {
	if !NeedsAnyModel(s.Run.Tracks) {
		return nil, nil
	}
	client, err := model.New(s.Model)
	if err != nil {
		return nil, err
	}
	ictx, cancel := context.WithTimeout(ctx, model.InspectTimeout)
	defer cancel()
	info, err := client.Inspect(ictx)
	if err != nil {
		return nil, fmt.Errorf("asking the server about %s: %w", s.Model.Model, err)
	}
	if s.Resumed && s.Run.ModelDigest != "" && info.Digest != "" && info.Digest != s.Run.ModelDigest {
		return nil, fmt.Errorf("cannot resume %s: the server's %s is now %s, the run started with %s", s.Dir, s.Run.Model, info.Digest, s.Run.ModelDigest)
	}
	if err := info.Require(s.Run.Think, slices.ContainsFunc(s.Run.Tracks, UsesTools)); err != nil {
		return nil, err
	}
	if !s.Resumed {
		s.Run.ModelDigest = info.Digest
	}
	return client, nil
}
