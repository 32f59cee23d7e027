package report

import "bench/record"

// Report is everything the renderers show, computed by Build. Its JSON form
// is the document of `bench report --format json`.
type Report struct {
	Runs      []RunInfo   `json:"runs"`
	Tracks    []TrackRow  `json:"tracks"`
	Rows      []Row       `json:"rows"`
	Ratios    []Ratio     `json:"ratios"`
	McNemar   []McNemar   `json:"mcnemar"`
	Sequences []Sequence  `json:"tool_sequences"`
	Twins     []TwinGroup `json:"twins"`
	Footnotes []Footnote  `json:"footnotes"`
	Design    []DesignRow `json:"design,omitempty"` // by the tasks' designs (design.go); nil for runs that record none
}

// RunInfo describes one of the merged runs.
type RunInfo struct {
	ID           string `json:"id"`
	Dir          string `json:"dir"`
	BenchVersion string `json:"bench_version"`
	Backend      string `json:"backend"`
	Model        string `json:"model"`
	ModelDigest  string `json:"model_digest"`
	Episodes     int    `json:"episodes"`
	// Sandbox is what confined the run's test runs; nil for runs from
	// before the sandbox.
	Sandbox *record.Sandbox `json:"sandbox,omitempty"`
}

// Row is the summary of one task and track.
type Row struct {
	Task            string   `json:"task"`
	Track           string   `json:"track"`
	Model           string   `json:"model"` // the model asked; "" when the track called none
	Runs            []string `json:"runs"`  // ids of the runs with episodes in the row, in input order
	N               int      `json:"n"`     // episodes counted: not the lost ones
	Lost            int      `json:"lost"`  // episodes ended by an infrastructure error, in no rate
	Passed          int      `json:"passed"`
	Rate            float64  `json:"rate"` // 0 when n is 0
	Wilson          Interval `json:"wilson95"`
	PassAtK         []PassK  `json:"pass_at_k"`
	MedianTokens    float64  `json:"median_tokens"`     // backend-reported prompt+completion
	MedianEstTokens float64  `json:"median_est_tokens"` // offline estimate, prompt+completion
	MedianTurns     float64  `json:"median_turns"`
	Exits           []Count  `json:"exit_reasons"`     // of the counted episodes
	Retries         int      `json:"retries"`          // model calls retried, over all episodes
	CutReplies      int      `json:"cut_replies"`      // replies cut at the reply cap, over all episodes
	GradingTimeouts int      `json:"grading_timeouts"` // counted episodes whose grading timed out (failed)
	Notes           []int    `json:"notes,omitempty"`  // footnote IDs
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

// Ratio compares the median tokens of two tracks on one task: Num/Den,
// e.g. agent/workflow.
type Ratio struct {
	Task      string    `json:"task"`
	Model     string    `json:"model"`
	Num       string    `json:"num"`
	Den       string    `json:"den"`
	NumN      int       `json:"num_n"`
	DenN      int       `json:"den_n"`
	NumMedian float64   `json:"num_median"`
	DenMedian float64   `json:"den_median"`
	Basis     string    `json:"basis"` // "reported" or "estimated" tokens
	Ratio     float64   `json:"ratio"`
	Interval  *Interval `json:"bootstrap95,omitempty"` // only when both n > 1
}

// McNemar is the exact McNemar test of two tracks (A, B) on the episodes of
// one task paired by run, seed and repeat; with no pair, Pairs is 0 and P 1.
type McNemar struct {
	Task     string  `json:"task"`
	Model    string  `json:"model"`
	A        string  `json:"a"`
	B        string  `json:"b"`
	Pairs    int     `json:"pairs"`
	BothPass int     `json:"both_pass"`
	OnlyA    int     `json:"only_a"` // A passed, B failed
	OnlyB    int     `json:"only_b"` // B passed, A failed
	BothFail int     `json:"both_fail"`
	P        float64 `json:"p"`
}

// Sequence is one distinct sequence of tool calls and how many episodes of
// a task and track made it.
type Sequence struct {
	Task  string   `json:"task"`
	Track string   `json:"track"`
	Model string   `json:"model"`
	Tools []string `json:"tools"`
	Count int      `json:"count"`
}

// TwinGroup is a set of episodes with the same task, track, seed and
// configuration, compared with the first of them.
type TwinGroup struct {
	Task    string       `json:"task"`
	Track   string       `json:"track"`
	Model   string       `json:"model"`
	Seed    int          `json:"seed"`
	Members []TwinMember `json:"members"`
	Notes   []int        `json:"notes,omitempty"`
}

// TwinMember is one episode of a twin group.
type TwinMember struct {
	Run       string `json:"run"`
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
