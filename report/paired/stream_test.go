package paired

import "testing"

// TestDrawPairsIsIntN checks that drawing a stratum's pairs two indices
// an output hits the pairs that as many calls of intN would, whatever
// spare half the stream holds, through the rare draws that intN redraws
// (5 million draws of 50,000 pairs make a few dozen), and leaves the
// stream where they would.
func TestDrawPairsIsIntN(t *testing.T) {
	for _, c := range []struct{ n, k int }{{1, 3}, {2, 7}, {3, 1000}, {50_000, 5_000_000}} {
		for _, start := range []int{0, 1} {
			a, b := newStream(5, "pairs", c.n), newStream(5, "pairs", c.n)
			for range start { // leave a spare half in both
				a.intN(c.n)
				b.intN(c.n)
			}
			tl := &tallies{hits: [][]uint8{make([]uint8, c.n)}, spill: make([][]uint32, 1)}
			tl.drawPairs(&a, 0, c.k)
			got := make([]int, c.n)
			for i, h := range tl.hits[0] {
				got[i] = int(h)
			}
			for _, i := range tl.spill[0] {
				got[i] += 256
			}
			want := make([]int, c.n)
			for range c.k {
				want[b.intN(c.n)]++
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n %d, k %d, start %d: pair %d hit %d times, by intN %d", c.n, c.k, start, i, got[i], want[i])
				}
			}
			if a.intN(c.n) != b.intN(c.n) {
				t.Errorf("n %d, k %d, start %d: the streams part after the draws", c.n, c.k, start)
			}
		}
	}
}
