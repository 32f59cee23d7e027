package report

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStepTableKeepsEveryListWhole adds lists of every length, some longer
// than a block, to tables with small blocks, and reads each back against
// the values computed one step at a time.
func TestStepTableKeepsEveryListWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{1, 3, 8, stepBlock} {
		var tab stepTable
		tab.init(size)
		var want [][]uint64
		var nums []uint32
		for i := range 400 {
			steps := make([]string, rng.IntN(3*max(1, min(size, 8))))
			vals := []uint64{}
			for j := range steps {
				steps[j] = fmt.Sprintf("%08x", rng.Uint32())
				if j%3 == 2 {
					steps[j] = fmt.Sprintf("step %d of %d", j, i)
				}
				vals = append(vals, stepValue([]byte(steps[j])))
			}
			raw, err := json.Marshal(steps)
			if err != nil {
				t.Fatal(err)
			}
			nums = append(nums, tab.add(raw))
			want = append(want, vals)
		}
		for i, k := range nums {
			if got := tab.list(k); !slices.Equal(got, want[i]) && len(got)+len(want[i]) > 0 {
				t.Fatalf("blocks of %d: list %d (number %d) = %x, want %x", size, i, k, got, want[i])
			}
		}
		if tab.list(0) != nil {
			t.Errorf("blocks of %d: list 0 (not kept) = %x, want nil", size, tab.list(0))
		}
	}
}
