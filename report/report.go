package report

import (
	"bench/record"
	"bench/report/predict"
)

// Report is everything the renderers show, computed from an Aggregate. Its
// JSON form is the document of `bench report --format json`. A figure
// that n = 0 leaves undefined (a rate, an interval, a median) is null.
type Report struct {
	Runs      []RunInfo   `json:"runs"`
	Tracks    []TrackRow  `json:"tracks"`
	Rows      []Row       `json:"rows"`
	Ratios    []Ratio     `json:"ratios"`
	McNemar   []McNemar   `json:"mcnemar"`
	Sequences []Sequence  `json:"tool_sequences"`      // the most frequent SequencesListed of each task, track and model
	MoreSeqs  []MoreSeqs  `json:"tool_sequences_more"` // what the list leaves out, per task, track and model
	Twins     []TwinGroup `json:"twins"`
	Footnotes []Footnote  `json:"footnotes"`
	Design    []DesignRow `json:"design,omitempty"` // by the tasks' designs (design.go); nil for runs that record none
	// Delegation is the hybrid's use of run_workflow per task and model
	// (causes.go); empty without a hybrid track.
	Delegation []Delegation `json:"delegation,omitempty"`

	// Pooled is the agent against each workflow track, pooled over tasks
	// (pooled.go), and then, for runs with dimensions, each value of a
	// dimension against its first, per track (variantcompare.go).
	Pooled []TrackPooled `json:"pooled"`
	// VariantTasks compares, for runs with dimensions, each value of a
	// dimension against its first, per task, track and model.
	VariantTasks []VariantTask `json:"variant_tasks,omitempty"`

	observed []predict.ObservedRun // each run's start, tasks and designs, for check
	agg      *Aggregate            // what it was computed from, for the page's episodes (FromData only)
}

// Options are the settings of a report; the zero value is the default.
type Options struct {
	// Effect is the change in pass rate the seeds needed are powered for
	// (bench report --effect); 0 = the observed change.
	Effect float64
}

// RunInfo describes one of the merged run folders.
type RunInfo struct {
	ID           string `json:"id"`
	UID          string `json:"uid"`   // the run's identity (run.json's uid, or one derived from its bytes)
	Label        string `json:"label"` // how the tables name the run: its id, or its folder when two runs share an id
	Dir          string `json:"dir"`
	BenchVersion string `json:"bench_version"`
	Backend      string `json:"backend"`
	Model        string `json:"model"`
	ModelDigest  string `json:"model_digest"`
	// Models are the run's models with their digests (its one model for a
	// run from before several models).
	Models      []record.ModelRef `json:"models,omitempty"`
	Episodes    int               `json:"episodes"`    // lines that stand (a redone episode's last)
	Planned     int               `json:"planned"`     // episodes its run.json plans (its shard's)
	Unfinished  int               `json:"unfinished"`  // planned episodes not finished: interrupted, lost, or never started
	Interrupted int               `json:"interrupted"` // episodes cut short (Ctrl-C), in no rate
	Lost        int               `json:"lost"`        // episodes lost to the infrastructure, in no rate
	NotRun      int               `json:"not_run"`     // planned episodes with no line at all
	Resume      string            `json:"resume,omitempty"`
	// Sandbox is what confined the run's test runs; nil for runs from
	// before the sandbox.
	Sandbox *record.Sandbox `json:"sandbox,omitempty"`
	// Replay is, for a replay run (bench run --replay), how its episodes
	// compared with the recording (replay.go); nil otherwise.
	Replay *ReplaySummary `json:"replay,omitempty"`
}

// Row is the summary of one task, track and model.
type Row struct {
	Task            string    `json:"task"`
	Track           string    `json:"track"`
	Model           string    `json:"model"`              // the model asked; "" when the track called none
	Variant         string    `json:"variant,omitempty"`  // its values of the run's dimensions (bench run --posture off,on); "" when there are none
	Runs            []string  `json:"runs"`               // labels of the runs with episodes in the row, in input order
	N               int       `json:"n"`                  // episodes counted: passed, failed and inconsistent ones
	Passed          int       `json:"passed"`             // of them, passes
	Inconsistent    int       `json:"inconsistent"`       // of them, lines that said passed against their tests or trajectory
	Lost            int       `json:"lost"`               // episodes ended by an infrastructure error, in no rate
	Interrupted     int       `json:"interrupted"`        // episodes cut short, in no rate
	Diverged        int       `json:"diverged,omitempty"` // replayed episodes that could not follow their recording, in no rate
	NotRun          int       `json:"not_run"`            // planned episodes without a line
	Rate            *float64  `json:"rate"`               // null when n is 0
	Wilson          *Interval `json:"wilson95"`           // null when n is 0
	PassAtK         []PassK   `json:"pass_at_k"`          // for each k ≤ n of PassAtKs; empty when n is 0
	MedianTokens    *float64  `json:"median_tokens"`      // backend-reported prompt+completion; null when n is 0
	MedianEstTokens *float64  `json:"median_est_tokens"`  // offline estimate, prompt+completion
	MedianTurns     *float64  `json:"median_turns"`
	Exits           []Count   `json:"exit_reasons"`     // of the counted episodes
	Retries         int       `json:"retries"`          // model calls retried, over every episode that stands
	CutReplies      int       `json:"cut_replies"`      // replies cut at the reply cap, over every episode that stands
	GradingTimeouts int       `json:"grading_timeouts"` // counted episodes whose grading timed out (failed)
	// Causes counts, per cause, the failed counted episodes that carry it
	// (an episode of several causes counts once under each), in the
	// vocabulary's order; CausesAbsent counts the failed ones whose line
	// records no causes (a run older than causes: bench show derives
	// them from the trajectory); Unexplained those whose line records
	// causes but none was found.
	Causes       []Count `json:"causes,omitempty"`
	CausesAbsent int     `json:"causes_absent"`
	Unexplained  int     `json:"unexplained"`
	// WorkflowCalls and WorkflowTokens sum, over the counted episodes,
	// the hybrid's run_workflow calls and their reported tokens; Tokens
	// is their reported tokens in all (the share's denominator);
	// Delegated counts the episodes that called run_workflow, and
	// DelegatedPassed those of them that passed (the last three are in
	// the document's delegation). All 0 for the tracks that have no
	// run_workflow.
	WorkflowCalls   int   `json:"workflow_calls"`
	WorkflowTokens  int   `json:"workflow_tokens"`
	Tokens          int   `json:"-"`
	Delegated       int   `json:"-"`
	DelegatedPassed int   `json:"-"`
	Notes           []int `json:"notes,omitempty"` // footnote IDs
}

// PassK is one pass@k estimate.
type PassK struct {
	K int     `json:"k"`
	P float64 `json:"p"`
}

// PassAtKs are the k for which a row shows pass@k, when n ≥ k.
var PassAtKs = []int{1, 2, 3, 5, 10}

// Count is a named count, e.g. of an exit reason.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Ratio compares the median tokens of two tracks on one task and model:
// Num/Den, e.g. agent/workflow.
type Ratio struct {
	Task      string  `json:"task"`
	Model     string  `json:"model"`
	Variant   string  `json:"variant,omitempty"`
	Num       string  `json:"num"`
	Den       string  `json:"den"`
	NumN      int     `json:"num_n"`
	DenN      int     `json:"den_n"`
	NumMedian float64 `json:"num_median"`
	DenMedian float64 `json:"den_median"`
	Basis     string  `json:"basis"` // BasisReported or BasisEstimated tokens
	Ratio     float64 `json:"ratio"`
	// Interval is the percentile-bootstrap 95% interval, null when either
	// side has fewer than MinBootstrapN episodes (its coverage falls
	// short of 90% there) or it is unbounded.
	Interval *Interval `json:"bootstrap95"`
}

// McNemar is the exact McNemar test of two tracks (A, B) on the episodes of
// one task and model paired by run, seed and repeat; with no pair, Pairs is
// 0 and P 1.
type McNemar struct {
	Task     string  `json:"task"`
	Model    string  `json:"model"`
	Variant  string  `json:"variant,omitempty"`
	A        string  `json:"a"`
	B        string  `json:"b"`
	Pairs    int     `json:"pairs"`
	BothPass int     `json:"both_pass"`
	OnlyA    int     `json:"only_a"` // A passed, B failed
	OnlyB    int     `json:"only_b"` // B passed, A failed
	BothFail int     `json:"both_fail"`
	P        float64 `json:"p"`
	// NeedDiscordant is the fewest discordant pairs (OnlyA + OnlyB) with
	// which p can fall below Alpha; a test with fewer cannot reach it.
	NeedDiscordant int   `json:"need_discordant"`
	Notes          []int `json:"notes,omitempty"` // footnote IDs, for the test and the token ratio of its tracks
}

// Sequence is one distinct sequence of tool calls and how many counted
// episodes of a task, track and model made it.
type Sequence struct {
	Task    string   `json:"task"`
	Track   string   `json:"track"`
	Model   string   `json:"model"`
	Variant string   `json:"variant,omitempty"`
	Tools   []string `json:"tools"`
	Count   int      `json:"count"`
}

// SequencesListed is how many distinct tool sequences of one task, track
// and model the report lists, the most frequent first. An agent's
// sequences are mostly distinct in a large run: the rest are counted in
// MoreSeqs (episodes.jsonl holds each episode's).
const SequencesListed = 100

// MoreSeqs counts the distinct tool sequences of a task, track and model
// past the SequencesListed listed, and the episodes that made them.
type MoreSeqs struct {
	Task      string `json:"task"`
	Track     string `json:"track"`
	Model     string `json:"model"`
	Variant   string `json:"variant,omitempty"`
	Sequences int    `json:"sequences"`
	Episodes  int    `json:"episodes"`
}

// TwinGroup is a set of episodes with the same task, track, model, seed and
// configuration, compared with the first of them.
type TwinGroup struct {
	Task    string       `json:"task"`
	Track   string       `json:"track"`
	Model   string       `json:"model"`
	Variant string       `json:"variant,omitempty"`
	Seed    int          `json:"seed"`
	Members []TwinMember `json:"members"`
	Notes   []int        `json:"notes,omitempty"`
}

// TwinMember is one episode of a twin group.
type TwinMember struct {
	Run       string `json:"run"`  // the run's label
	Name      string `json:"name"` // seed-<s>[-r<k>]
	Steps     int    `json:"steps"`
	Passed    bool   `json:"passed"`
	Identical bool   `json:"identical"`            // same steps as the first member
	DivergeAt int    `json:"diverge_at,omitempty"` // first differing step, 1-based
	Hint      string `json:"hint,omitempty"`       // the first differing tool call
}

// Footnote is a caveat, numbered as it is referred to.
type Footnote struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}
