package paired

import (
	"cmp"
	"iter"
	"maps"
	"slices"
)

// Pairing says how the two sides paired: how many pairs, which episodes
// have no pair (and so are in no paired test), and which keys a side holds
// more than once (only the first of them is used).
type Pairing struct {
	Pairs        int    `json:"pairs"`
	OnlyOld      []Key  `json:"only_old"`      // old episodes without a new one of the same key
	OnlyNew      []Key  `json:"only_new"`      // new episodes without an old one of the same key
	DuplicateOld []Key  `json:"duplicate_old"` // keys given more than once on the old side: the later ones are not used
	DuplicateNew []Key  `json:"duplicate_new"`
	OnlyOldCells []Cell `json:"only_old_cells"` // cells only the old side holds: not compared
	OnlyNewCells []Cell `json:"only_new_cells"`
}

// obs is one episode's outcome as the tests read it.
type obs struct {
	passed        bool
	tokens, turns float64
}

// pair is an old and a new episode of the same key.
type pair struct {
	seed     int
	old, new obs
}

// stratum holds one cell's data: its pairs, and the episodes of each side
// without a pair.
type stratum struct {
	cell             Cell
	pairs            []pair
	onlyOld, onlyNew []obs
}

// paired reports whether the cell is tested on its pairs.
func (s *stratum) paired() bool { return len(s.pairs) > 0 }

// sideCell is one side's episodes of one cell, in the order given, until
// sorted by seed and repeat.
type sideCell struct {
	cell Cell
	eps  []cellEp
}

// cellEp is an episode as its cell holds it.
type cellEp struct {
	seed, repeat int
	obs          obs
}

// group gathers one side's episodes by cell under the options' key (a
// run of episodes of one cell, as callers list them, costs no lookup),
// each cell's episodes sorted by seed and repeat, the first of a key kept
// and the keys seen again listed.
func group(side string, eps iter.Seq[Episode], o Options) (map[Cell]*sideCell, []Key, error) {
	cells := map[Cell]*sideCell{}
	var last *sideCell
	for e := range eps {
		if err := validate(side, e); err != nil {
			return nil, nil, err
		}
		c := Cell{e.Task, e.Track, e.Model, e.Variant}
		if o.AcrossTracks {
			c.Track = ""
		}
		if o.AcrossModels {
			c.Model = ""
		}
		if last == nil || last.cell != c {
			if last = cells[c]; last == nil {
				last = &sideCell{cell: c}
				cells[c] = last
			}
		}
		if len(last.eps) == cap(last.eps) { // double: growing by a quarter, as append does at this size, would allocate five times the cell
			last.eps = grown(last.eps, max(len(last.eps), 16))
		}
		last.eps = append(last.eps, cellEp{e.Seed, e.Repeat, obs{e.Passed, e.Tokens, e.Turns}})
	}
	var dups []Key
	for _, sc := range cells {
		slices.SortStableFunc(sc.eps, func(a, b cellEp) int { return cmp.Or(cmp.Compare(a.seed, b.seed), cmp.Compare(a.repeat, b.repeat)) })
		kept := sc.eps[:0]
		for i, e := range sc.eps {
			if i > 0 && e.seed == sc.eps[i-1].seed && e.repeat == sc.eps[i-1].repeat {
				if k := sc.key(e); len(dups) == 0 || dups[len(dups)-1] != k {
					dups = append(dups, k)
				}
				continue
			}
			kept = append(kept, e)
		}
		sc.eps = kept
	}
	slices.SortFunc(dups, compareKeys)
	return cells, dups, nil
}

// grown returns eps with room for n more, in a new array that a loop
// fills: slices.Grow would copy and clear in runtime calls that cannot be
// preempted, on pages touched for the first time, and a garbage collection
// waiting to scan the goroutine signals it again and again meanwhile (see
// docs/ARCHITECTURE.md); the loop's stores can be preempted.
func grown(eps []cellEp, n int) []cellEp {
	out := make([]cellEp, len(eps), len(eps)+n)
	//lint:ignore S1001 copy is the runtime call this avoids
	for i, e := range eps {
		out[i] = e
	}
	return out
}

// key is the pairing key of an episode of the cell.
func (sc *sideCell) key(e cellEp) Key {
	c := sc.cell
	return Key{Task: c.Task, Track: c.Track, Model: c.Model, Variant: c.Variant, Seed: e.seed, Repeat: e.repeat}
}

// pairUp builds the strata (cells that both sides hold, sorted) and the
// Pairing: within each cell, the two sides' episodes sorted by seed and
// repeat are merged, an old and a new one of the same key a pair. It
// returns the first episode whose tokens or turns are not counts as an
// error.
func pairUp(old, new iter.Seq[Episode], o Options) ([]*stratum, Pairing, error) {
	var nc map[Cell]*sideCell
	var dupNew []Key
	var errNew error
	done := make(chan struct{})
	go func() { // the sides are read apart: each iterator runs on a goroutine of its own
		defer close(done)
		nc, dupNew, errNew = group("new", new, o)
	}()
	oc, dupOld, err := group("old", old, o)
	<-done
	if err == nil {
		err = errNew
	}
	if err != nil {
		return nil, Pairing{}, err
	}
	p := Pairing{DuplicateOld: dupOld, DuplicateNew: dupNew}
	all := map[Cell]bool{}
	for c := range oc {
		all[c] = true
	}
	for c := range nc {
		all[c] = true
	}
	var strata []*stratum
	for _, c := range slices.SortedFunc(maps.Keys(all), compareCells) {
		os, ns := oc[c], nc[c]
		switch {
		case ns == nil:
			p.OnlyOldCells = append(p.OnlyOldCells, c)
			for _, e := range os.eps {
				p.OnlyOld = append(p.OnlyOld, os.key(e))
			}
			continue
		case os == nil:
			p.OnlyNewCells = append(p.OnlyNewCells, c)
			for _, e := range ns.eps {
				p.OnlyNew = append(p.OnlyNew, ns.key(e))
			}
			continue
		}
		s := &stratum{cell: c, pairs: make([]pair, 0, min(len(os.eps), len(ns.eps)))}
		a, b := os.eps, ns.eps
		for len(a) > 0 || len(b) > 0 {
			order := 0
			switch {
			case len(a) == 0:
				order = 1
			case len(b) == 0:
				order = -1
			default:
				order = cmp.Or(cmp.Compare(a[0].seed, b[0].seed), cmp.Compare(a[0].repeat, b[0].repeat))
			}
			switch {
			case order == 0:
				s.pairs = append(s.pairs, pair{a[0].seed, a[0].obs, b[0].obs})
				p.Pairs++
				a, b = a[1:], b[1:]
			case order < 0:
				s.onlyOld = append(s.onlyOld, a[0].obs)
				p.OnlyOld = append(p.OnlyOld, os.key(a[0]))
				a = a[1:]
			default:
				s.onlyNew = append(s.onlyNew, b[0].obs)
				p.OnlyNew = append(p.OnlyNew, ns.key(b[0]))
				b = b[1:]
			}
		}
		strata = append(strata, s)
	}
	return strata, p, nil
}
