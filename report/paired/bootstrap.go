package paired

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Bootstrap interval methods.
const (
	IntervalNewcombePaired      = "newcombe-paired"
	IntervalNewcombeIndependent = "newcombe-independent"
	IntervalBootstrapSeeds      = "bootstrap-seeds"       // one cell: its pairs (or each side's episodes) resampled
	IntervalBootstrapTasks      = "bootstrap-tasks-seeds" // a pool: tasks resampled, then each task's pairs
)

// FewTasks is the number of tasks below which a pooled bootstrap over
// tasks carries a caveat: resampling so few clusters gives a rough
// interval that says little about other tasks.
const FewTasks = 10

// replicates holds one statistic per bootstrap resample: the
// Mantel-Haenszel difference in pass rate and the ratios of the median
// tokens and turns (NaN or ±Inf when a resample's old median is 0).
type replicates struct {
	diff, tokens, turns []float64
}

// parallelDraws is the number of draws (resamples × observations) below
// which a bootstrap runs on one goroutine: a cell of a few pairs costs
// less than starting workers.
const parallelDraws = 1 << 16

// bootstrap draws resamples of the strata. With overTasks and more than
// one stratum it is two-stage: the strata are drawn with replacement, then
// within each drawn stratum its pairs (or, unpaired, each side's episodes)
// with replacement; else only the second stage. Resample b draws from its
// own stream (newStream of seed, label and b), so the resamples run on
// GOMAXPROCS workers and give the same replicates on any number of them.
//
// A resample's statistics depend only on how often each pair is drawn, so
// a paired stratum's draws only count the hits of each pair (a small
// array that stays in cache, where reading each pair drawn jumped across
// megabytes), and one pass in order over the pairs then adds each pair's
// hits to the tallies: the count of each distinct value drawn, from which
// the medians are read without sorting. The same draws give the same
// statistics as sorting each resample's values (bootstrapBySort).
func bootstrap(strata []*stratum, overTasks bool, resamples int, seed uint64, label string) replicates {
	r := replicates{make([]float64, resamples), make([]float64, resamples), make([]float64, resamples)}
	d := newDrawSet(strata)
	workers := runtime.GOMAXPROCS(0)
	if d.size*resamples < parallelDraws {
		workers = 1
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, resamples) {
		wg.Go(func() {
			t := d.newTallies()
			for {
				b := int(next.Add(1) - 1)
				if b >= resamples {
					return
				}
				s := newStream(seed, label, b)
				r.diff[b], r.tokens[b], r.turns[b] = d.resample(&s, overTasks, t)
			}
		})
	}
	wg.Wait()
	return r
}

// resample draws one resample from s and returns its statistics; t is the
// worker's scratch space.
func (d *drawSet) resample(s *stream, overTasks bool, t *tallies) (diff, tokens, turns float64) {
	for i := range t.drawn {
		t.drawn[i] = i
	}
	if overTasks && len(t.drawn) > 1 {
		for i := range t.drawn {
			t.drawn[i] = s.intN(len(t.drawn))
		}
	}
	num, weight := 0.0, 0.0
	for _, si := range t.drawn {
		st := &d.strata[si]
		if n := len(st.pairs); n > 0 {
			t.drawPairs(s, si, n)
			weight += float64(n) / 2 // each pair a table of weight ½
			continue
		}
		n0, n1 := len(st.onlyOld), len(st.onlyNew)
		pass0, pass1 := 0, 0
		for range n0 {
			o := &st.onlyOld[s.intN(n0)]
			c := &d.combos[o.combo]
			pass0 += int(c.passed)
			t.oldTok.counts[o.oldTok]++
			t.oldTurn.counts[c.oldTurn]++
		}
		for range n1 {
			o := &st.onlyNew[s.intN(n1)]
			c := &d.combos[o.combo]
			pass1 += int(c.passed)
			t.newTok.counts[o.newTok]++
			t.newTurn.counts[c.newTurn]++
		}
		t.oldTok.n, t.oldTurn.n = t.oldTok.n+n0, t.oldTurn.n+n0
		t.newTok.n, t.newTurn.n = t.newTok.n+n1, t.newTurn.n+n1
		w := float64(n0*n1) / float64(n0+n1)
		num += w * (float64(pass1)/float64(n1) - float64(pass0)/float64(n0))
		weight += w
	}
	num += float64(d.addHits(t)) / 2 // halves of whole numbers: exact, in any order
	return num / weight, t.newTok.median(d.newTok) / t.oldTok.median(d.oldTok), t.newTurn.median(d.newTurn) / t.oldTurn.median(d.oldTurn)
}

// hit counts a draw of pair i of stratum si. A pair's count is a byte
// (the hits of a stratum of 80,000 pairs, 80 kB, stay in the core's
// cache), which a pair drawn 256 times in one resample wraps round to 0:
// that pair is then listed in the stratum's spill, 256 hits each time.
func (t *tallies) hit(si, i int) {
	h := &t.hits[si][i]
	if *h++; *h == 0 {
		t.spill[si] = append(t.spill[si], uint32(i))
	}
}

// drawPairs draws k of the pairs of stratum si, counting their hits: the
// indices k calls of s.intN would give, in their order, two from each
// output of the generator without keeping the spare half between them
// (the hot loop of a bootstrap, written out).
func (t *tallies) drawPairs(s *stream, si, k int) {
	n := len(t.hits[si])
	for k > 0 {
		if s.has || k == 1 {
			t.hit(si, s.intN(n))
			k--
			continue
		}
		x := s.pcg.Uint64()
		m0, m1 := (x&0xffffffff)*uint64(n), (x>>32)*uint64(n)
		if uint32(m0) < uint32(n) || uint32(m1) < uint32(n) { // rarely (n in 2³²): perhaps biased, drawn as intN does
			s.spare, s.has = uint32(x>>32), true
			t.hit(si, s.intNFrom(uint32(x), n))
			k--
			continue
		}
		t.hit(si, int(m0>>32))
		t.hit(si, int(m1>>32))
		k -= 2
	}
}

// addHits adds the pairs drawn (t.hits) to the tallies, clearing the
// hits, and returns the change in passes they sum to (new − old).
func (d *drawSet) addHits(t *tallies) int {
	oldTok, newTok := t.oldTok.counts, t.newTok.counts
	drawn := 0
	for si := range d.strata {
		pairs, hits := d.strata[si].pairs, t.hits[si]
		if len(pairs) == 0 {
			continue
		}
		hits = hits[:len(pairs)]
		for i := range pairs {
			p, h := &pairs[i], uint32(hits[i])
			oldTok[p.oldTok] += h
			newTok[p.newTok] += h
			t.combos[p.combo] += h
			drawn += int(h)
		}
		clear(hits)
		for _, i := range t.spill[si] { // each a pair's 256 hits that wrapped its count round
			p := &pairs[i]
			oldTok[p.oldTok] += 256
			newTok[p.newTok] += 256
			t.combos[p.combo] += 256
			drawn += 256
		}
		t.spill[si] = t.spill[si][:0]
	}
	change := 0
	for c, h := range t.combos {
		if h == 0 {
			continue
		}
		cb := &d.combos[c]
		t.oldTurn.counts[cb.oldTurn] += h
		t.newTurn.counts[cb.newTurn] += h
		change += int(cb.passed) * int(h)
		t.combos[c] = 0
	}
	t.oldTok.n, t.newTok.n = t.oldTok.n+drawn, t.newTok.n+drawn
	t.oldTurn.n, t.newTurn.n = t.oldTurn.n+drawn, t.newTurn.n+drawn
	return change
}

// drawSet is the strata as the bootstrap draws them, shared read-only by
// its workers: each side's distinct values of tokens and of turns,
// ascending, and each observation as its values' ranks among them (draw).
type drawSet struct {
	strata                           []drawStratum
	combos                           []combo
	oldTok, newTok, oldTurn, newTurn []float64
	size                             int // the observations of every stratum
}

// drawStratum is one stratum's pairs, and episodes without a pair, as
// draws, in its order.
type drawStratum struct{ pairs, onlyOld, onlyNew []draw }

// draw is what a resample reads of a pair (or of one side's episode,
// which fills that side's rank only): the ranks of its tokens on each
// side and its combo, 12 bytes.
type draw struct{ oldTok, newTok, combo uint32 }

// combo is one of the distinct combinations of the turns' ranks and the
// passes that the draws hold (a few dozen in a real run: they stay in the
// fastest cache): passed is, for a pair, the new pass minus the old (−1,
// 0 or 1), for one side's episode 1 for a pass.
type combo struct {
	oldTurn, newTurn uint32
	passed           int32
}

// tallies are one worker's scratch space: in the resample being drawn,
// the strata drawn, the hits of each pair of each paired stratum (and the
// pairs whose count wrapped round, spill) and of each combo, and the draws
// of each value of each measure on each side.
type tallies struct {
	drawn                            []int
	hits                             [][]uint8
	spill                            [][]uint32
	combos                           []uint32
	oldTok, newTok, oldTurn, newTurn tally
}

// tally counts the draws of each value of one measure on one side.
type tally struct {
	counts []uint32
	n      int
}

// newDrawSet ranks the values of the strata, each side's apart.
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
	comboOf := map[combo]uint32{}
	code := func(c combo) uint32 {
		i, ok := comboOf[c]
		if !ok {
			i = uint32(len(d.combos))
			comboOf[c] = i
			d.combos = append(d.combos, c)
		}
		return i
	}
	for _, s := range strata {
		ds := drawStratum{pairs: make([]draw, len(s.pairs)), onlyOld: make([]draw, len(s.onlyOld)), onlyNew: make([]draw, len(s.onlyNew))}
		for i, p := range s.pairs {
			c := combo{oldTurn[p.old.turns], newTurn[p.new.turns], int32(b2i(p.new.passed) - b2i(p.old.passed))}
			ds.pairs[i] = draw{oldTok[p.old.tokens], newTok[p.new.tokens], code(c)}
		}
		for i, o := range s.onlyOld {
			ds.onlyOld[i] = draw{oldTok: oldTok[o.tokens], combo: code(combo{oldTurn: oldTurn[o.turns], passed: int32(b2i(o.passed))})}
		}
		for i, o := range s.onlyNew {
			ds.onlyNew[i] = draw{newTok: newTok[o.tokens], combo: code(combo{newTurn: newTurn[o.turns], passed: int32(b2i(o.passed))})}
		}
		d.strata = append(d.strata, ds)
	}
	return d
}

// ranker sets *values to the distinct values of the measure value over
// os, ascending, and returns the rank of each.
func ranker(os []obs, value func(obs) float64, values *[]float64) map[float64]uint32 {
	rank := map[float64]uint32{}
	for _, o := range os {
		if _, ok := rank[value(o)]; !ok {
			rank[value(o)] = 0
			*values = append(*values, value(o))
		}
	}
	slices.Sort(*values)
	for i, v := range *values {
		rank[v] = uint32(i)
	}
	return rank
}

// newTallies returns a worker's empty tallies.
func (d *drawSet) newTallies() *tallies {
	hits := make([][]uint8, len(d.strata))
	for i, s := range d.strata {
		hits[i] = make([]uint8, len(s.pairs))
	}
	return &tallies{
		drawn: make([]int, len(d.strata)), hits: hits, spill: make([][]uint32, len(d.strata)), combos: make([]uint32, len(d.combos)),
		oldTok: tally{counts: make([]uint32, len(d.oldTok))}, newTok: tally{counts: make([]uint32, len(d.newTok))},
		oldTurn: tally{counts: make([]uint32, len(d.oldTurn))}, newTurn: tally{counts: make([]uint32, len(d.newTurn))},
	}
}

// median is the median of the values drawn (as medianOf has it: the
// midpoint of the two middle values for an even count; NaN for none),
// values being the values ranked; it clears the tally for the next
// resample.
func (t *tally) median(values []float64) float64 {
	if t.n == 0 {
		return math.NaN()
	}
	lo, hi := (t.n-1)/2, t.n/2 // the places of the two middle values in sorted order
	var vlo, vhi float64
	seen := 0
	for r, c := range t.counts {
		if c == 0 {
			continue
		}
		if seen <= lo && lo < seen+int(c) {
			vlo = values[r]
		}
		if seen <= hi && hi < seen+int(c) {
			vhi = values[r]
			break
		}
		seen += int(c)
	}
	clear(t.counts)
	t.n = 0
	return (vlo + vhi) / 2
}

// percentile is the percentile-bootstrap interval of the replicates at the
// confidence level, or false when a replicate is not finite (a resample
// whose old median is 0: the interval is unbounded).
func percentile(xs []float64, confidence float64) (Interval, bool) {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Interval{}, false
		}
	}
	sorted := slices.Sorted(slices.Values(xs))
	a := (1 - confidence) / 2
	return Interval{Low: empiricalQuantile(sorted, a), High: empiricalQuantile(sorted, 1-a)}, true
}

// empiricalQuantile is the smallest value x of sorted with F(x) ≥ q, F the
// empirical distribution function: the ⌈q·n⌉-th value, q·n rounded to
// absorb the rounding of q itself (1 − 0.95 is not 0.05 in binary).
func empiricalQuantile(sorted []float64, q float64) float64 {
	n := float64(len(sorted))
	k := int(math.Ceil(math.Round(q*n*1e6)/1e6)) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}

// medianOf is the median of xs (the midpoint of the two middle values for
// even n), reordering xs; NaN when it is empty.
func medianOf(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	return (xs[(n-1)/2] + xs[n/2]) / 2
}
