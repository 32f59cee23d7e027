package plan

import (
	"fmt"
	"strconv"
	"strings"

	"bench/internal/words"
	"bench/record"
	"bench/runner"
	"bench/trackfacts"
)

// Plan is what a run is to do: its dimensions, the episodes of its shard
// (Episodes) out of the whole plan's (Total), those still to run
// (Pending, fewer when resumed), and the most they may spend per track.
type Plan struct {
	Dir                      string // the results folder, as the user gave it
	Tasks, Tracks, Models    []string
	WorkflowModel            string // the hybrid's --workflow-model, "" for the episode's model
	Seeds                    []int
	Variants                 []string // the variants of the run's dimensions (record.Run.Variants); nil without
	Shard                    *record.Shard
	Hosts                    []string
	Episodes, Total, Pending int
	Budget                   Budget      // the first variant's, when the run has dimensions
	Tracked                  []TrackCost // per track, in the run's order, of the pending episodes
	Cost                     Bound       // the sum of Tracked
	Workers                  int         // the episodes run at once
}

// TrackCost is the pending episodes of one track and the most they may spend.
type TrackCost struct {
	Track    string
	Episodes int
	Each     Bound // one episode
	All      Bound // Episodes of them
}

// Of is the plan of the session s, whose folder the user named dir ("" for
// the default one): nothing is asked of a server.
func Of(s *runner.Session, dir string) (Plan, error) {
	r := s.Run
	p := Plan{
		Dir: s.Dir, Tracks: r.Tracks, WorkflowModel: r.WorkflowModel, Seeds: r.Seeds, Shard: r.Shard, Hosts: s.Hosts,
		Budget: budgetOf(r.RunSettings),
	}
	if dir != "" {
		p.Dir = dir
	}
	for _, t := range s.Tasks {
		p.Tasks = append(p.Tasks, t.Name)
	}
	if runner.NeedsAnyModel(r.Tracks) {
		p.Models = s.ModelNames()
	}
	p.Episodes = len(s.Plan())
	p.Total = len(s.WholePlan())
	pending := s.Pending()
	p.Pending = len(pending)
	p.Workers = max(1, s.Slots()*max(1, len(s.Hosts)))
	if !runner.NeedsAnyModel(r.Tracks) {
		p.Workers = max(1, r.Parallel)
	}
	if len(r.Dimensions) > 0 {
		p.Variants = r.Variants()
	}
	per := map[[2]string]int{} // pending episodes by track and variant
	for _, j := range pending {
		per[[2]string{j.Track, j.Variant}]++
	}
	for _, tr := range r.Tracks {
		tc := TrackCost{Track: tr}
		for _, v := range r.Variants() {
			settings, err := r.RunSettings.WithVariant(v)
			if err != nil {
				return Plan{}, err
			}
			each, err := EpisodeBound(tr, budgetOf(settings))
			if err != nil {
				return Plan{}, err
			}
			n := per[[2]string{tr, v}]
			tc.Episodes += n
			tc.Each, tc.All = tc.Each.Max(each), tc.All.Add(each.Times(n))
		}
		p.Tracked = append(p.Tracked, tc)
		p.Cost = p.Cost.Add(tc.All)
	}
	return p, nil
}

// budgetOf is the budget the settings s give one episode.
func budgetOf(s record.RunSettings) Budget {
	return Budget{MaxTurns: s.MaxTurns, Tries: s.Tries, MaxTokens: s.MaxTokens, TokenLimit: s.TokenLimit}
}

// EpisodesPhrase is how many episodes the run holds: "16 episodes", or
// for a shard "8 of 16 episodes".
func (p Plan) EpisodesPhrase() string {
	if p.Shard != nil && p.Shard.Count > 1 {
		return fmt.Sprintf("%d of %s", p.Episodes, words.Plural(p.Total, "episode"))
	}
	return words.Plural(p.Episodes, "episode")
}

// Dims is the plan's product, "4 tasks × 2 tracks × 2 seeds", with the
// models when there are several.
func (p Plan) Dims() string {
	dims := []string{words.Plural(len(p.Tasks), "task"), words.Plural(len(p.Tracks), "track")}
	if len(p.Models) > 1 {
		dims = append(dims, words.Plural(len(p.Models), "model"))
	}
	if len(p.Variants) > 1 {
		dims = append(dims, words.Plural(len(p.Variants), "variant"))
	}
	return strings.Join(append(dims, words.Plural(len(p.Seeds), "seed")), " × ")
}

// CostLine is the most the pending episodes may spend, in one sentence
// naming the budgets that bound it.
func (p Plan) CostLine() string {
	if p.Cost.Calls == 0 {
		return "no model calls: no track of this run asks a model"
	}
	tokens := "unbounded reply tokens (--max-tokens 0 caps no reply)"
	if !p.Cost.Unbounded {
		tokens = group(p.Cost.ReplyTokens) + " reply tokens"
	}
	return fmt.Sprintf("at most %s model calls and %s for %s, under %s", group(p.Cost.Calls), tokens, words.Plural(p.Pending, "episode"), p.budgets())
}

// budgets names the budgets of the run's tracks.
func (p Plan) budgets() string {
	b := p.Budget
	var parts []string
	if p.has(trackfacts.Agent, trackfacts.Hybrid) {
		parts = append(parts, "--max-turns "+strconv.Itoa(cmpOr(b.MaxTurns, record.DefaultMaxTurns)))
		if b.TokenLimit > 0 {
			parts = append(parts, "--token-limit "+strconv.Itoa(b.TokenLimit))
		} else {
			parts = append(parts, "no --token-limit")
		}
	}
	if p.has(trackfacts.WorkflowRetry) {
		parts = append(parts, "--tries "+strconv.Itoa(cmpOr(b.Tries, record.DefaultTries)))
	}
	return strings.Join(append(parts, "--max-tokens "+strconv.Itoa(b.MaxTokens)), ", ")
}

// has reports whether the plan runs any of the tracks.
func (p Plan) has(tracks ...string) bool {
	for _, t := range p.Tracks {
		for _, u := range tracks {
			if t == u {
				return true
			}
		}
	}
	return false
}

// Dimensions is the plan as a table of its dimensions: each with its
// count and values.
func (p Plan) Dimensions() (header []string, rows [][]string) {
	models := "none (no track asks a model)"
	if len(p.Models) > 0 {
		models = strings.Join(p.Models, ", ")
	}
	if p.WorkflowModel != "" {
		models += "; run_workflow asks " + p.WorkflowModel
	}
	seeds := make([]string, len(p.Seeds))
	for i, s := range p.Seeds {
		seeds[i] = strconv.Itoa(s)
	}
	shard := "the whole plan"
	if p.Shard != nil {
		shard = fmt.Sprintf("part %s: %s", p.Shard, p.EpisodesPhrase())
	}
	hosts := "none"
	if len(p.Hosts) > 0 {
		hosts = strings.Join(p.Hosts, ", ")
	}
	rows = [][]string{
		{"tasks", strconv.Itoa(len(p.Tasks)), strings.Join(p.Tasks, ", ")},
		{"tracks", strconv.Itoa(len(p.Tracks)), strings.Join(p.Tracks, ", ")},
		{"models", strconv.Itoa(len(p.Models)), models},
		{"seeds", strconv.Itoa(len(p.Seeds)), strings.Join(seeds, ", ")},
	}
	if len(p.Variants) > 0 {
		rows = append(rows, []string{"variants", strconv.Itoa(len(p.Variants)), strings.Join(p.Variants, "; ")})
	}
	rows = append(rows, [][]string{
		{"shard", "", shard},
		{"hosts", strconv.Itoa(len(p.Hosts)), hosts},
		{"episodes", strconv.Itoa(p.Episodes), fmt.Sprintf("%s; %d to run, %d at once", p.EpisodesPhrase(), p.Pending, p.Workers)},
	}...)
	return []string{"plan", "n", "values"}, rows
}

// Costs is the table of the most each track's pending episodes may spend,
// with a total row.
func (p Plan) Costs() (header []string, rows [][]string) {
	for _, tc := range p.Tracked {
		rows = append(rows, []string{tc.Track, strconv.Itoa(tc.Episodes), group(tc.Each.Calls), tokensCell(tc.Each), group(tc.All.Calls), tokensCell(tc.All)})
	}
	rows = append(rows, []string{"total", strconv.Itoa(p.Pending), "", "", group(p.Cost.Calls), tokensCell(p.Cost)})
	return []string{"track", "episodes", "calls/episode", "reply tokens/episode", "calls", "reply tokens"}, rows
}

// tokensCell is a bound's reply tokens, "unbounded" when no cap holds them.
func tokensCell(b Bound) string {
	if b.Unbounded {
		return "unbounded"
	}
	return group(b.ReplyTokens)
}

// group writes n with thousands separators: 425,984.
func group(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + group(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
