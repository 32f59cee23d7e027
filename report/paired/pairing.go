package paired

import (
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

// keyer turns an episode into its pairing key under the options.
func keyer(o Options) func(Episode) Key {
	return func(e Episode) Key {
		k := Key{Task: e.Task, Track: e.Track, Model: e.Model, Variant: e.Variant, Seed: e.Seed, Repeat: e.Repeat}
		if o.AcrossTracks {
			k.Track = ""
		}
		if o.AcrossModels {
			k.Model = ""
		}
		return k
	}
}

// index maps each key of a side to its first episode and lists the keys
// seen again.
func index(eps []Episode, key func(Episode) Key) (map[Key]obs, []Key) {
	m := make(map[Key]obs, len(eps))
	var dups []Key
	for _, e := range eps {
		k := key(e)
		if _, ok := m[k]; ok {
			dups = append(dups, k)
			continue
		}
		m[k] = obs{e.Passed, e.Tokens, e.Turns}
	}
	slices.SortFunc(dups, compareKeys)
	return m, slices.Compact(dups)
}

// pairUp builds the strata (cells that both sides hold, sorted) and the
// Pairing.
func pairUp(old, new []Episode, o Options) ([]*stratum, Pairing) {
	key := keyer(o)
	om, dupOld := index(old, key)
	nm, dupNew := index(new, key)
	p := Pairing{DuplicateOld: dupOld, DuplicateNew: dupNew}
	cells := map[Cell]*stratum{}
	get := func(c Cell) *stratum {
		if cells[c] == nil {
			cells[c] = &stratum{cell: c}
		}
		return cells[c]
	}
	oldCells, newCells := map[Cell]bool{}, map[Cell]bool{}
	for _, k := range slices.SortedFunc(maps.Keys(om), compareKeys) {
		oldCells[k.cell()] = true
		s := get(k.cell())
		if n, ok := nm[k]; ok {
			s.pairs = append(s.pairs, pair{k.Seed, om[k], n})
			p.Pairs++
			continue
		}
		s.onlyOld = append(s.onlyOld, om[k])
		p.OnlyOld = append(p.OnlyOld, k)
	}
	for _, k := range slices.SortedFunc(maps.Keys(nm), compareKeys) {
		newCells[k.cell()] = true
		s := get(k.cell())
		if _, ok := om[k]; !ok {
			s.onlyNew = append(s.onlyNew, nm[k])
			p.OnlyNew = append(p.OnlyNew, k)
		}
	}
	var strata []*stratum
	for _, c := range slices.SortedFunc(maps.Keys(cells), compareCells) {
		switch {
		case !newCells[c]:
			p.OnlyOldCells = append(p.OnlyOldCells, c)
		case !oldCells[c]:
			p.OnlyNewCells = append(p.OnlyNewCells, c)
		default:
			strata = append(strata, cells[c])
		}
	}
	return strata, p
}
