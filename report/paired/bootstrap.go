package paired

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"bench/internal/radix"
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
// A resample's statistics depend only on how often each pair is drawn, and
// each statistic on less than that, so a resample draws counts, not pairs
// (drawSet.resample): the law of each statistic is that of drawing the
// pairs one by one, exactly, while the joint law of the token ratio with
// the pass difference and the turn ratio is not kept (docs/COMPARE.md);
// every interval is read from one statistic's replicates alone.
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
// worker's scratch space. A drawn stratum's n draws (m·n when the first
// stage drew it m times: the sum of m multinomial draws of the same
// probabilities is one) are counted twice, independently: once over its
// combos (turns and pass change, a few dozen), which gives the pass
// difference and the turn ratio; once over its token blocks, which gives
// the token ratio (tokenMedians). Each count is multinomial, drawn as
// conditional binomials: the law of drawing the pairs one by one.
func (d *drawSet) resample(s *stream, overTasks bool, t *tallies) (diff, tokens, turns float64) {
	t.drawStrata(s, overTasks)
	num, weight, change := 0.0, 0.0, 0
	for si, m := range t.mult {
		if m == 0 {
			continue
		}
		st := &d.strata[si]
		if st.paired {
			n := m * st.n0
			change += t.drawCombos(s, d, &st.combos, n, true, true)
			t.drawBlocks(s, &st.blocks, n)
			weight += float64(n) / 2 // each pair a table of weight ½
			continue
		}
		pass0 := t.drawCombos(s, d, &st.oldCombos, m*st.n0, true, false)
		pass1 := t.drawCombos(s, d, &st.newCombos, m*st.n1, false, true)
		t.drawBlocks(s, &st.oldBlocks, m*st.n0)
		t.drawBlocks(s, &st.newBlocks, m*st.n1)
		w := float64(st.n0*st.n1) / float64(st.n0+st.n1) // each of the m tables drawn
		num += w * (float64(pass1)/float64(st.n1) - float64(pass0)/float64(st.n0))
		weight += float64(m) * w
	}
	num += float64(change) / 2 // halves of whole numbers: exact, in any order
	oldTok, newTok := d.tokenMedians(s, t)
	return num / weight, newTok / oldTok, t.newTurn.median(d.newTurn) / t.oldTurn.median(d.oldTurn)
}

// drawStrata sets t.mult to how often the resample draws each stratum:
// once each, or, over tasks, as many draws with replacement as strata.
func (t *tallies) drawStrata(s *stream, overTasks bool) {
	if !overTasks || len(t.mult) == 1 {
		for i := range t.mult {
			t.mult[i] = 1
		}
		return
	}
	clear(t.mult)
	for range t.mult {
		t.mult[s.intN(len(t.mult))]++
	}
}

// drawCombos draws how many of n draws hit each of the combos c, adds
// their turns to the old side's tally (old) and the new side's (new), and
// returns the sum of their passes (a pair's change, an episode's pass).
func (t *tallies) drawCombos(s *stream, d *drawSet, c *counted, n int, old, new bool) int {
	sum := 0
	for k, x := range s.multinomial(n, c.sizes, c.total, t.scratch) {
		if x == 0 {
			continue
		}
		cb := &d.combos[c.ids[k]]
		if old {
			t.oldTurn.counts[cb.oldTurn] += x
		}
		if new {
			t.newTurn.counts[cb.newTurn] += x
		}
		sum += int(cb.passed) * int(x)
	}
	if old {
		t.oldTurn.n += n
	}
	if new {
		t.newTurn.n += n
	}
	return sum
}

// drawBlocks draws how many of n draws hit each block of b, keeping the
// counts (t.blocks) and adding them to the draws of each token bin.
func (t *tallies) drawBlocks(s *stream, b *blockSet, n int) {
	for k, x := range s.multinomial(n, b.sizes, b.total, t.blocks[b.base:]) {
		if b.row[k] != noBin {
			t.rows[b.row[k]] += int(x)
		}
		if b.col[k] != noBin {
			t.cols[b.col[k]] += int(x)
		}
	}
	if b.old {
		t.oldTok.n += n
	}
	if b.new {
		t.newTok.n += n
	}
}

// tokenMedians returns the medians of the old and the new tokens drawn.
// The counts per block tell in which bins of old ranks (rows) and of new
// ranks (columns) the middle draws fall, and how many draws lie below.
// Only the draws of the blocks in those rows and columns are then drawn
// further (each uniform over its block's observations, a block in both
// drawn once for both sides): when bins are cut into sub bins, a block in
// one side's middle has its draws split over its sub bins first, which
// tells in which sub bins the middle draws fall, and only the draws of
// those are drawn one by one; else every draw of a middle block is. That
// places the middle values exactly. The other draws are independent of
// these and move neither median.
func (d *drawSet) tokenMedians(s *stream, t *tallies) (old, new float64) {
	var mid [2]middle
	mid[sideOld].lo, mid[sideOld].hi, mid[sideOld].below = middleBins(t.rows, t.oldTok.n, 0)
	mid[sideNew].lo, mid[sideNew].hi, mid[sideNew].below = middleBins(t.cols, t.newTok.n, 0)
	for si, m := range t.mult {
		if m == 0 {
			continue
		}
		st := &d.strata[si]
		for _, b := range []*blockSet{&st.blocks, &st.oldBlocks, &st.newBlocks} {
			t.drawMiddle(s, d, b, &mid)
		}
	}
	clear(t.rows)
	clear(t.cols)
	if d.sub > 1 {
		for side := range mid {
			t.narrow(s, d, side, &mid[side])
		}
		t.pending, t.meet = t.pending[:0], t.meet[:0]
	}
	old = t.oldTok.medianIn(d.oldTok, d.fine[sideOld].span(mid[sideOld].lo, mid[sideOld].hi), mid[sideOld].below)
	new = t.newTok.medianIn(d.newTok, d.fine[sideNew].span(mid[sideNew].lo, mid[sideNew].hi), mid[sideNew].below)
	return old, new
}

// middle is where one side's middle draws lie: bins lo to hi (sub bins
// once narrowed), with below draws in the bins before them.
type middle struct{ lo, hi, below int }

// holds reports whether bin, a block's row or column, is among m's bins.
func (m *middle) holds(bin uint16) bool { return bin != noBin && m.lo <= int(bin) && int(bin) <= m.hi }

// drawMiddle draws further the draws of the blocks of b that lie in the
// middle rows or columns. Uncut, it draws them one by one and tallies
// their tokens on the side (or sides) that needs them. Cut, it keeps a
// block in the middle of both sides' draws (meet) and counts them per sub
// bin, and splits a block in one side's middle over its sub bins.
func (t *tallies) drawMiddle(s *stream, d *drawSet, b *blockSet, mid *[2]middle) {
	for k, x := range t.blocks[b.base : b.base+len(b.sizes)] {
		if x == 0 {
			continue
		}
		needOld, needNew := mid[sideOld].holds(b.row[k]), mid[sideNew].holds(b.col[k])
		switch {
		case !needOld && !needNew:
			continue
		case d.sub > 1 && needOld && needNew:
			members := b.members[b.off[k] : b.off[k]+b.sizes[k]]
			for range x {
				m := members[s.intN(len(members))]
				t.meet = append(t.meet, m)
				t.fine[sideOld][d.fine[sideOld].of[m.old]]++
				t.fine[sideNew][d.fine[sideNew].of[m.new]]++
			}
		case d.sub > 1:
			side := sideOld
			if needNew {
				side = sideNew
			}
			at := (b.base + k) * d.sub
			split := s.multinomial(int(x), b.bySub[side].sizes[k*d.sub:(k+1)*d.sub], int(b.sizes[k]), t.split[at:])
			first := int(b.bin(k, side)) * d.sub
			for j, c := range split {
				t.fine[side][first+j] += int(c)
			}
			t.pending = append(t.pending, pending{b, k, side})
		default:
			members := b.members[b.off[k] : b.off[k]+b.sizes[k]]
			for range x {
				m := &members[s.intN(len(members))]
				if needOld {
					t.oldTok.counts[m.old]++
				}
				if needNew {
					t.newTok.counts[m.new]++
				}
			}
		}
	}
}

// narrow finds the sub bins of one side's middle draws from the draws per
// sub bin, draws one by one the split draws that lie in them, tallies
// those and the meeting draws that do, and sets m to those sub bins.
func (t *tallies) narrow(s *stream, d *drawSet, side int, m *middle) {
	if m.lo > m.hi {
		return
	}
	first, end := m.lo*d.sub, (m.hi+1)*d.sub
	lo, hi, below := middleBins(t.fine[side][first:end], t.tok(side).n, m.below)
	lo, hi = lo+first, hi+first
	clear(t.fine[side][first:end])
	counts := t.tok(side).counts
	for _, p := range t.pending {
		if p.side != side {
			continue
		}
		o, from := &p.b.bySub[side], int(p.b.bin(p.k, side))*d.sub // the block's first sub bin
		for j := max(lo, from); j <= min(hi, from+d.sub-1); j++ {
			i := p.k*d.sub + j - from
			members := o.members[o.at[i] : o.at[i]+o.sizes[i]]
			for range t.split[(p.b.base+p.k)*d.sub+j-from] {
				counts[members[s.intN(len(members))].rank(side)]++
			}
		}
	}
	for _, x := range t.meet {
		if f := int(d.fine[side].of[x.rank(side)]); lo <= f && f <= hi {
			counts[x.rank(side)]++
		}
	}
	*m = middle{lo, hi, below}
}

// middleBins returns the bins holding the middle draws of n (the
// (n−1)/2-th and n/2-th in order, counting from 0) by the draws of each
// bin, seen draws lying before the first, and the draws before the bins
// found; an empty range when n is 0.
func middleBins(counts []int, n, seen int) (lo, hi, below int) {
	if n == 0 {
		return 1, 0, 0
	}
	loPos, hiPos := (n-1)/2, n/2
	lo = -1
	for b, c := range counts {
		if lo < 0 && loPos < seen+c {
			lo, below = b, seen
		}
		if hiPos < seen+c {
			return lo, b, below
		}
		seen += c
	}
	panic("paired: the bins hold fewer draws than counted")
}

// medianIn is the median of the draws tallied (n of them), of which below
// lie under the ranks span and the middle ones within it, values being
// the values ranked; NaN for none. It clears the tally.
func (t *tally) medianIn(values []float64, span [2]uint32, below int) float64 {
	n := t.n
	t.n = 0
	if n == 0 {
		return math.NaN()
	}
	lo, hi := (n-1)/2, n/2
	var vlo, vhi float64
	seen := below
	counts := t.counts[span[0]:span[1]]
	for r, c := range counts {
		if c == 0 {
			continue
		}
		if seen <= lo && lo < seen+int(c) {
			vlo = values[int(span[0])+r]
		}
		if seen <= hi && hi < seen+int(c) {
			vhi = values[int(span[0])+r]
			break
		}
		seen += int(c)
	}
	clear(counts)
	return (vlo + vhi) / 2
}

// median is the median of the values drawn (as medianOf has it: the
// midpoint of the two middle values for an even count; NaN for none),
// values being the values ranked; it clears the tally for the next
// resample.
func (t *tally) median(values []float64) float64 {
	return t.medianIn(values, [2]uint32{0, uint32(len(t.counts))}, 0)
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
	radix.Floats(xs)
	return (xs[(n-1)/2] + xs[n/2]) / 2
}
