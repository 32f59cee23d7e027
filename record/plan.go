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
	seeds                 []int // the distinct seeds, in the order first used
	use                   seedUses
	task, model, variant  map[string]int
	variants              []string // the run's variants (Run.Variants): [""] without dimensions
	shard                 *Shard
}

// Plan returns the run's plan. Its models are the run's (the one model of
// a run written before models were listed; "" when no track calls one).
func (r Run) Plan() Plan {
	p := Plan{tasks: make([]string, len(r.Tasks)), tracks: slices.Clone(r.Tracks), models: r.modelNames(),
		task: map[string]int{}, model: map[string]int{}, shard: r.Shard,
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
	p.use = newSeedUses(r.Seeds)
	for _, s := range r.Seeds {
		u := p.use.of(s)
		if u.uses == 0 {
			u.rank = len(p.seeds)
			p.seeds = append(p.seeds, s)
		}
		u.uses++
	}
	return p
}

// seedUses holds each seed's uses and its place among the distinct seeds:
// by the seed itself when every seed is a small whole number, as the
// seeds bench plans are (a report looks up every episode's seed, and a
// million lookups in a map of 83,000 seeds took a twentieth of its CPU),
// else in a map.
type seedUses struct {
	dense  []seedUse // by seed, when every seed is in [0, len(dense))
	sparse map[int]*seedUse
}

// seedUse is a seed's uses and rank.
type seedUse struct{ uses, rank int }

// newSeedUses makes the seedUses of seeds, every one unused.
func newSeedUses(seeds []int) seedUses {
	if len(seeds) > 0 && slices.Min(seeds) >= 0 && slices.Max(seeds) < 2*len(seeds)+1024 {
		return seedUses{dense: make([]seedUse, slices.Max(seeds)+1)}
	}
	return seedUses{sparse: map[int]*seedUse{}}
}

// of returns the seed's uses and rank, to change (made for a seed of the
// plan's when sparse).
func (u seedUses) of(seed int) *seedUse {
	if u.dense != nil {
		return &u.dense[seed]
	}
	if u.sparse[seed] == nil {
		u.sparse[seed] = &seedUse{}
	}
	return u.sparse[seed]
}

// get returns the seed's uses and rank, none for a seed not planned.
func (u seedUses) get(seed int) seedUse {
	if u.dense != nil {
		if seed < 0 || seed >= len(u.dense) {
			return seedUse{}
		}
		return u.dense[seed]
	}
	if p := u.sparse[seed]; p != nil {
		return *p
	}
	return seedUse{}
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
	u := p.use.get(seed)
	return c.ok && repeat >= 0 && repeat < u.uses && p.dealt(u.rank, c.task, c.model, c.variant)
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
						n += p.use.get(s).uses
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
