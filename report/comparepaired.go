package report

import (
	"iter"

	"bench/report/paired"
)

// Token bases: which count of tokens a comparison reads.
const (
	BasisReported  = "reported"  // the server's count of prompt and completion tokens
	BasisEstimated = "estimated" // bench's offline estimate
)

// pairedEpisodes returns the counted episodes of cells (lost and
// interrupted ones are in no test) as the paired library reads them, their
// tokens in basis, made one at a time as it reads them (a million
// Episodes, 112 bytes each, were most of a report's memory), and how many
// there are. key, when not nil, amends each episode's pairing key: it takes
// and returns the Episode by value, since an Episode whose address a
// function value is given escapes to the heap (an allocation per episode).
func (a *Aggregate) pairedEpisodes(cells []*cell, basis string, key func(e *epRec, ep paired.Episode) paired.Episode) (iter.Seq[paired.Episode], int) {
	n := 0
	for _, c := range cells {
		n += len(c.counted)
	}
	return func(yield func(paired.Episode) bool) {
		for _, c := range cells {
			for _, k := range c.counted {
				e := &a.eps[c.idx[k]]
				tokens := e.tokens
				if basis == BasisEstimated {
					tokens = e.est
				}
				ep := paired.Episode{Task: c.task, Track: c.track, Model: c.model, Variant: c.variant, Seed: int(e.seed), Repeat: int(e.repeat),
					Passed: e.pass(), Tokens: float64(tokens), Turns: float64(e.turns)}
				if key != nil {
					ep = key(e, ep)
				}
				if !yield(ep) {
					return
				}
			}
		}
	}, n
}

// sideCells are the cells of one aggregate that a token basis is chosen
// over.
type sideCells struct {
	a     *Aggregate
	cells []*cell
}

// tokenBasis chooses the token basis once for every episode compared: the
// server's counts when every counted episode that bench could estimate has
// one (an episode that called no model has neither), else bench's
// estimate for all, so that both sides are counted alike.
func tokenBasis(sides ...sideCells) string {
	for _, s := range sides {
		for _, c := range s.cells {
			for _, k := range c.counted {
				if e := &s.a.eps[c.idx[k]]; e.tokens <= 0 && e.est > 0 {
					return BasisEstimated
				}
			}
		}
	}
	return BasisReported
}

// basisLine says in one line which tokens a comparison reads.
func basisLine(basis string) string {
	if basis == BasisEstimated {
		return "tokens: bench's offline estimate (the server did not count tokens for every episode), on both sides"
	}
	return "tokens: as the server counted them (prompt + completion)"
}

// modelsOf is the set of models of cells with counted episodes.
func modelsOf(cells []*cell) map[string]bool {
	m := map[string]bool{}
	for _, c := range cells {
		if len(c.counted) > 0 {
			m[c.model] = true
		}
	}
	return m
}

// acrossModels reports whether the model is the setting compared: each
// side holds one model and they differ. When the sides hold the same
// models, or a side holds several, episodes pair within a model.
func acrossModels(oc, nc []*cell) bool {
	o, n := modelsOf(oc), modelsOf(nc)
	if len(o) != 1 || len(n) != 1 {
		return false
	}
	for m := range o {
		return !n[m]
	}
	return false
}
