package record

import "slices"

// Plan is which episodes a run was to hold, as its run.json says: every
// task × model × variant × track × seed, the k-th use of a seed its repeat k,
// cut to the run's shard. It is arithmetic, not a list: a plan of a million
// episodes takes a few maps of its tasks, models, variants and seeds. It agrees with
// the runner's plan and shards (a test compares them), so that a report
// can say what an interrupted run still lacks.
type Plan struct {
	tasks, tracks, models []string
	seeds                 []int       // the distinct seeds, in the order first used
	uses                  map[int]int // each seed's uses
	rank                  map[int]int // each distinct seed's place in seeds
	task, model, variant  map[string]int
	variants              []string // the run's variants (Run.Variants): [""] without dimensions
	shard                 *Shard
}

// Plan returns the run's plan. Its models are the run's (the one model of
// a run written before models were listed; "" when no track calls one).
func (r Run) Plan() Plan {
	p := Plan{tasks: make([]string, len(r.Tasks)), tracks: slices.Clone(r.Tracks), models: r.modelNames(),
		uses: map[int]int{}, rank: map[int]int{}, task: map[string]int{}, model: map[string]int{}, shard: r.Shard,
		variants: r.Variants(), variant: map[string]int{}}
	for i, v := range p.variants {
		p.variant[v] = i
	}
	for i, t := range r.Tasks {
		p.tasks[i] = t.Name
		p.task[t.Name] = i
	}
	for i, m := range p.models {
		p.model[m] = i
	}
	for _, s := range r.Seeds {
		if p.uses[s] == 0 {
			p.rank[s] = len(p.seeds)
			p.seeds = append(p.seeds, s)
		}
		p.uses[s]++
	}
	return p
}

// modelNames are the run's models in the order given: its models list, or
// its one model ("" when no track calls one).
func (r Run) modelNames() []string {
	if len(r.Models) == 0 {
		return []string{r.Model}
	}
	names := make([]string, len(r.Models))
	for i, m := range r.Models {
		names[i] = m.Name
	}
	return names
}

// Holds reports whether the plan holds the episode of task, track, model,
// variant, seed and repeat.
func (p Plan) Holds(task, track, model, variant string, seed, repeat int) bool {
	return p.HoldsIn(p.Ref(task, track, model, variant), seed, repeat)
}

// CellRef is where a task, track, model and variant sit in a plan
// (Plan.Ref), for asking HoldsIn of a million episodes without looking
// their names up.
type CellRef struct {
	task, model, variant int
	ok                   bool // the plan has the task, track, model and variant
}

// Ref returns where task, track, model and variant sit in the plan.
func (p Plan) Ref(task, track, model, variant string) CellRef {
	t, okT := p.task[task]
	m, okM := p.model[model]
	v, okV := p.variant[variant]
	return CellRef{t, m, v, okT && okM && okV && slices.Contains(p.tracks, track)}
}

// HoldsIn reports whether the plan holds the episode of seed and repeat of
// the cell c (Ref).
func (p Plan) HoldsIn(c CellRef, seed, repeat int) bool {
	return c.ok && repeat >= 0 && repeat < p.uses[seed] && p.dealt(p.rank[seed], c.task, c.model, c.variant)
}

// dealt reports whether the group of the seed of rank r, task t, model m
// and variant v (all its tracks and repeats) is the shard's: groups are
// dealt round-robin in the order the plan first reaches them, seed by
// seed, task by task, model by model, variant by variant. A run without
// dimensions has one variant.
func (p Plan) dealt(r, t, m, v int) bool {
	if p.shard == nil || p.shard.Count <= 1 {
		return true
	}
	g := ((r*len(p.tasks)+t)*len(p.models)+m)*len(p.variants) + v
	return g%p.shard.Count == p.shard.Index-1
}

// PlanCell is the planned episodes of one task, track, model and variant.
type PlanCell struct {
	Task, Track, Model, Variant string
	Episodes                    int
}

// Cells returns, for every task, model, variant and track of the plan in
// that order, how many of its episodes the plan holds (0 for a shard
// dealt none of them).
func (p Plan) Cells() []PlanCell {
	var out []PlanCell
	for t, task := range p.tasks {
		for m, model := range p.models {
			for v, variant := range p.variants {
				n := 0
				for r, s := range p.seeds {
					if p.dealt(r, t, m, v) {
						n += p.uses[s]
					}
				}
				for _, track := range p.tracks {
					out = append(out, PlanCell{task, track, model, variant, n})
				}
			}
		}
	}
	return out
}
