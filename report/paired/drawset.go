package paired

import (
	"math"
	"slices"

	"bench/internal/radix"
)

// drawSet is the strata as the bootstrap draws them, shared read-only by
// its workers: each side's distinct values of tokens and of turns,
// ascending, each side's token ranks cut into bins, and each stratum's
// observations counted by combo and grouped by block.
type drawSet struct {
	strata                           []drawStratum
	combos                           []combo
	oldTok, newTok, oldTurn, newTurn []float64
	oldBins, newBins                 bins
	fine                             [2]bins // each side's bins cut into sub bins (old, new): bin b's are b·sub to b·sub+sub−1
	sub                              int     // the sub bins of a bin; 1: the bins are not cut
	blocks                           int     // the blocks of every stratum
	size                             int     // the observations of every stratum
}

// drawStratum is one stratum as draws: a paired stratum's pairs (its
// episodes without a pair are in none of its tests), or an unpaired
// stratum's episodes of each side.
type drawStratum struct {
	paired                       bool
	n0, n1                       int // its pairs (both), or each side's episodes
	combos, oldCombos, newCombos counted
	blocks, oldBlocks, newBlocks blockSet
}

// combo is one of the distinct combinations of the turns' ranks and the
// passes that the observations hold (a few dozen in a real run): passed
// is, for a pair, the new pass minus the old (−1, 0 or 1), for one side's
// episode 1 for a pass.
type combo struct {
	oldTurn, newTurn uint32
	passed           int32
}

// counted lists distinct combos and how many observations hold each.
type counted struct {
	ids, sizes []uint32
	total      int
}

// noBin is the bin of the missing side of an episode without a pair.
const noBin = math.MaxUint16

// blockSet is observations grouped by block: the bin of their old token
// rank (row) and of their new (column), noBin for a side they lack.
type blockSet struct {
	base     int // the place of its first block among the draw set's
	row, col []uint16
	sizes    []uint32
	off      []uint32 // block k is members[off[k] : off[k]+sizes[k]]
	members  []tok
	total    int
	old, new bool        // whether its observations have an old, a new side
	bySub    [2]subOrder // for each side it has, when bins are cut
}

// subOrder is a block set's members ordered, within each block, by the sub
// bin of one side's rank: block k's members in its j-th sub bin are
// members[at[k·sub+j]:][:sizes[k·sub+j]].
type subOrder struct {
	members   []tok
	sizes, at []uint32
}

// tok is the token ranks of one observation (0 for a side it lacks).
type tok struct{ old, new uint32 }

// Sides, as the index of fine, bySub and the tallies' fine counts.
const (
	sideOld = 0
	sideNew = 1
)

// rank is t's rank on side.
func (t tok) rank(side int) uint32 {
	if side == sideOld {
		return t.old
	}
	return t.new
}

// bin is block k's bin on side, noBin for a side it lacks.
func (b *blockSet) bin(k, side int) uint16 {
	if side == sideOld {
		return b.row[k]
	}
	return b.col[k]
}

// bins cut one side's ranks into consecutive bins of about equal numbers
// of observations.
type bins struct {
	of    []uint16 // the bin of each rank
	start []uint32 // the first rank of each bin, and the number of ranks last
}

// span is the ranks of bins lo to hi, none when lo > hi.
func (b *bins) span(lo, hi int) [2]uint32 {
	if lo > hi {
		return [2]uint32{}
	}
	return [2]uint32{b.start[lo], b.start[hi+1]}
}

// binCount is the number of bins a side's ranks are cut into, and
// subCount the number of sub bins each bin is cut into. A resample draws
// the counts of every block (strata × bins², at most), splits the draws
// of the blocks in the middle bins over their sub bins (strata × bins ×
// sub bins on each side) and draws one by one those in the middle sub
// bins (about 2 × size / (bins × sub bins)) and those of the blocks in
// the middle of both sides (about size / bins²). As many sub bins as bins,
// and bins near the cube root of size / (128 × strata), cost least here:
// about 280 µs a resample of 4 tasks × 82,000 pairs on one core
// (BenchmarkBootstrapPooled), against about 470 µs with uncut bins.
func binCount(size, strata int) int {
	return min(max(int(math.Cbrt(float64(size)/(128*float64(max(strata, 1))))), 1), 1024)
}

// newDrawSet ranks the values of the strata, each side's apart, and
// counts and groups each stratum's observations.
func newDrawSet(strata []*stratum) *drawSet {
	nOld, nNew := 0, 0
	for _, s := range strata {
		nOld, nNew = nOld+len(s.pairs)+len(s.onlyOld), nNew+len(s.pairs)+len(s.onlyNew)
	}
	old, new := make([]obs, 0, nOld), make([]obs, 0, nNew)
	for _, s := range strata {
		for _, p := range s.pairs {
			old, new = append(old, p.old), append(new, p.new)
		}
		old, new = append(old, s.onlyOld...), append(new, s.onlyNew...)
	}
	d := &drawSet{size: len(old) + len(new)}
	oldTok, newTok := ranker(old, tokensOf, &d.oldTok), ranker(new, tokensOf, &d.newTok)
	oldTurn, newTurn := ranker(old, turnsOf, &d.oldTurn), ranker(new, turnsOf, &d.newTurn)
	nb := binCount(d.size, len(strata))
	oldPer, newPer := rankCounts(oldTok, len(d.oldTok)), rankCounts(newTok, len(d.newTok))
	d.oldBins, d.newBins = newBins(oldPer, len(oldTok), nb), newBins(newPer, len(newTok), nb)
	d.sub = subCount(nb)
	d.fine = [2]bins{d.oldBins, d.newBins}
	if d.sub > 1 {
		d.fine = [2]bins{cutBins(d.oldBins, oldPer, d.sub), cutBins(d.newBins, newPer, d.sub)}
	}
	code := d.coder()
	io, in := 0, 0 // the place of the stratum's first observation of each side in old and new
	for _, s := range strata {
		ds := drawStratum{paired: len(s.pairs) > 0}
		if ds.paired {
			ds.n0, ds.n1 = len(s.pairs), len(s.pairs)
			ids, toks := make([]uint32, len(s.pairs)), make([]tok, len(s.pairs))
			for i, p := range s.pairs {
				ids[i] = code(combo{oldTurn[io+i], newTurn[in+i], int32(b2i(p.new.passed) - b2i(p.old.passed))})
				toks[i] = tok{oldTok[io+i], newTok[in+i]}
			}
			ds.combos, ds.blocks = countIDs(ids), d.newBlockSet(toks, true, true)
		}
		io, in = io+len(s.pairs), in+len(s.pairs)
		if !ds.paired {
			ds.n0, ds.n1 = len(s.onlyOld), len(s.onlyNew)
			ids, toks := make([]uint32, len(s.onlyOld)), make([]tok, len(s.onlyOld))
			for i, o := range s.onlyOld {
				ids[i], toks[i] = code(combo{oldTurn: oldTurn[io+i], passed: int32(b2i(o.passed))}), tok{old: oldTok[io+i]}
			}
			ds.oldCombos, ds.oldBlocks = countIDs(ids), d.newBlockSet(toks, true, false)
			ids, toks = make([]uint32, len(s.onlyNew)), make([]tok, len(s.onlyNew))
			for i, o := range s.onlyNew {
				ids[i], toks[i] = code(combo{newTurn: newTurn[in+i], passed: int32(b2i(o.passed))}), tok{new: newTok[in+i]}
			}
			ds.newCombos, ds.newBlocks = countIDs(ids), d.newBlockSet(toks, false, true)
		}
		io, in = io+len(s.onlyOld), in+len(s.onlyNew)
		d.strata = append(d.strata, ds)
	}
	return d
}

// coder returns the function that numbers each distinct combo in
// d.combos.
func (d *drawSet) coder() func(combo) uint32 {
	comboOf := map[combo]uint32{}
	return func(c combo) uint32 {
		i, ok := comboOf[c]
		if !ok {
			i = uint32(len(d.combos))
			comboOf[c] = i
			d.combos = append(d.combos, c)
		}
		return i
	}
}

// ranker sets *values to the distinct values of the measure value over
// os, ascending, and returns the rank of each observation's value: read in
// the order that sorts them (radix.Order), each a count (validate refuses
// a NaN, which equals no value, itself included).
func ranker(os []obs, value func(obs) float64, values *[]float64) []uint32 {
	all := make([]float64, len(os))
	for i, o := range os {
		all[i] = value(o)
	}
	ranks := make([]uint32, len(os))
	distinct := []float64{}
	for _, i := range radix.Order(all) {
		if v := all[i]; len(distinct) == 0 || v != distinct[len(distinct)-1] {
			distinct = append(distinct, v)
		}
		ranks[i] = uint32(len(distinct) - 1)
	}
	*values = slices.Clip(distinct)
	return ranks
}

// subCount is the number of sub bins each of nb bins is cut into (see
// binCount); one bin is not cut, so that a small run draws as it always
// has.
func subCount(nb int) int {
	if nb == 1 {
		return 1
	}
	return min(nb, 64)
}

// rankCounts counts the observations of each of n ranks, ranks being
// theirs.
func rankCounts(ranks []uint32, n int) []int {
	per := make([]int, n)
	for _, r := range ranks {
		per[r]++
	}
	return per
}

// newBins cuts ranks, per[r] observations at rank r and total in all, into
// at most nb bins of about equal numbers of observations.
func newBins(per []int, total, nb int) bins {
	of := make([]uint16, len(per))
	seen := 0
	for r, c := range per {
		of[r] = uint16(min(seen*nb/max(total, 1), nb-1))
		seen += c
	}
	return binsOf(of, nb)
}

// cutBins cuts each bin of b into sub bins of about equal numbers of
// observations, per[r] being those at rank r.
func cutBins(b bins, per []int, sub int) bins {
	nb := len(b.start) - 1
	inBin := make([]int, nb)
	for r, c := range per {
		inBin[b.of[r]] += c
	}
	of := make([]uint16, len(per))
	seen := 0
	for r, c := range per {
		bin := int(b.of[r])
		if r == int(b.start[bin]) {
			seen = 0
		}
		of[r] = uint16(bin*sub + min(seen*sub/max(inBin[bin], 1), sub-1))
		seen += c
	}
	return binsOf(of, nb*sub)
}

// binsOf is the nb bins whose bin of each rank is of, ascending.
func binsOf(of []uint16, nb int) bins {
	n := len(of)
	b := bins{of: of, start: make([]uint32, nb+1)}
	for k := range b.start {
		b.start[k] = uint32(n)
	}
	for r := n - 1; r >= 0; r-- { // each bin's first rank; an empty bin starts where the next does
		b.start[of[r]] = uint32(r)
	}
	for k := nb - 1; k >= 0; k-- {
		b.start[k] = min(b.start[k], b.start[k+1])
	}
	return b
}

// countIDs counts the observations of each distinct combo of ids.
func countIDs(ids []uint32) counted {
	sorted := slices.Sorted(slices.Values(ids))
	c := counted{total: len(ids)}
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		c.ids, c.sizes = append(c.ids, sorted[i]), append(c.sizes, uint32(j-i))
		i = j
	}
	return c
}

// newBlockSet groups the observations toks into blocks by the bins of
// their old ranks (if old) and new ranks (if new), numbering the blocks
// after those of the draw set so far. It sorts toks by block, in their
// order within a block (a counting sort: the blocks are few).
func (d *drawSet) newBlockSet(toks []tok, old, new bool) blockSet {
	side := len(d.oldBins.start) // the bins, and one for a missing side
	key := func(t tok) int {
		row, col := side-1, side-1
		if old {
			row = int(d.oldBins.of[t.old])
		}
		if new {
			col = int(d.newBins.of[t.new])
		}
		return row*side + col
	}
	at := make([]uint32, side*side+1)
	for _, t := range toks {
		at[key(t)+1]++
	}
	b := blockSet{base: d.blocks, members: make([]tok, len(toks)), total: len(toks), old: old, new: new}
	for k := range side * side {
		if size := at[k+1]; size > 0 {
			row, col := k/side, k%side
			b.row, b.col = append(b.row, binOrNone(row, side)), append(b.col, binOrNone(col, side))
			b.off, b.sizes = append(b.off, at[k]), append(b.sizes, size)
		}
		at[k+1] += at[k]
	}
	for _, t := range toks {
		k := key(t)
		b.members[at[k]] = t
		at[k]++
	}
	d.blocks += len(b.sizes)
	if d.sub > 1 {
		for side, has := range []bool{old, new} {
			if has {
				b.bySub[side] = d.subOrder(&b, side)
			}
		}
	}
	return b
}

// subOrder orders each block's members of b by their sub bin on side, in
// their order within a sub bin (a counting sort per block).
func (d *drawSet) subOrder(b *blockSet, side int) subOrder {
	sub, fine := d.sub, &d.fine[side]
	o := subOrder{members: make([]tok, len(b.members)), sizes: make([]uint32, len(b.sizes)*sub), at: make([]uint32, len(b.sizes)*sub)}
	next := make([]uint32, sub)
	for k := range b.sizes {
		block := b.members[b.off[k] : b.off[k]+b.sizes[k]]
		first := int(b.bin(k, side)) * sub
		sizes := o.sizes[k*sub : (k+1)*sub]
		for _, m := range block {
			sizes[int(fine.of[m.rank(side)])-first]++
		}
		at := b.off[k]
		for j := range sub {
			o.at[k*sub+j], next[j] = at, at
			at += sizes[j]
		}
		for _, m := range block {
			j := int(fine.of[m.rank(side)]) - first
			o.members[next[j]] = m
			next[j]++
		}
	}
	return o
}

// binOrNone is bin as a block's row or column: noBin for the last, the
// missing side's.
func binOrNone(bin, side int) uint16 {
	if bin == side-1 {
		return noBin
	}
	return uint16(bin)
}

// tallies are one worker's scratch space: in the resample being drawn,
// how often each stratum is drawn, the draws of each block and of each
// token bin of each side, the combos' counts, and the draws of each value
// of each measure on each side.
type tallies struct {
	mult                             []int
	blocks, scratch                  []uint32
	rows, cols                       []int
	oldTok, newTok, oldTurn, newTurn tally

	// When bins are cut: the draws of each side's sub bins, of each
	// block's sub bins (split, at the block's place × sub), the blocks
	// split, and the draws of blocks in the middle of both sides.
	fine    [2][]int
	split   []uint32
	pending []pending
	meet    []tok
}

// pending is a block whose draws are split over its sub bins on one side:
// those in the middle sub bins are drawn one by one once these are known.
type pending struct {
	b       *blockSet
	k, side int
}

// tally counts the draws of each value of one measure on one side.
type tally struct {
	counts []uint32
	n      int
}

// newTallies returns a worker's empty tallies.
func (d *drawSet) newTallies() *tallies {
	return &tallies{
		mult: make([]int, len(d.strata)), blocks: make([]uint32, d.blocks), scratch: make([]uint32, len(d.combos)),
		rows: make([]int, len(d.oldBins.start)-1), cols: make([]int, len(d.newBins.start)-1),
		oldTok: tally{counts: make([]uint32, len(d.oldTok))}, newTok: tally{counts: make([]uint32, len(d.newTok))},
		oldTurn: tally{counts: make([]uint32, len(d.oldTurn))}, newTurn: tally{counts: make([]uint32, len(d.newTurn))},
		fine:  [2][]int{make([]int, len(d.fine[sideOld].start)-1), make([]int, len(d.fine[sideNew].start)-1)},
		split: make([]uint32, d.blocks*d.sub),
	}
}

// tally is the tally of side's tokens.
func (t *tallies) tok(side int) *tally {
	if side == sideOld {
		return &t.oldTok
	}
	return &t.newTok
}
