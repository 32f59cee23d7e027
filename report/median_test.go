package report

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"bench/record"
)

// TestMedianOfEvenNIsTheMidpoint: the median of an even number of values is
// the mean of the two middle ones (600, 600, 885, 1340 → 742.5), in the
// rows, the ratio and the text's headers.
func TestMedianOfEvenNIsTheMidpoint(t *testing.T) {
	if got := median([]float64{600, 600, 885, 1340}); got != 742.5 {
		t.Errorf("median = %v, want 742.5", got)
	}
	if got := median([]float64{1, 2, 3}); got != 2 {
		t.Errorf("median of odd n = %v, want 2", got)
	}
	var eps []record.Episode
	for i, tok := range []int{600, 600, 885, 1340} {
		eps = append(eps, episode("t", "agent", i+1, 0, true, tok), episode("t", "workflow", i+1, 0, true, 100))
	}
	rep := FromData([]record.Data{{Run: record.Run{ID: "r"}, Episodes: eps}}).Report()
	var agent Row
	for _, r := range rep.Rows {
		if r.Track == "agent" {
			agent = r
		}
	}
	if agent.MedianTokens == nil || *agent.MedianTokens != 742.5 {
		t.Errorf("row median tokens = %v, want 742.5", agent.MedianTokens)
	}
	if len(rep.Ratios) != 1 || rep.Ratios[0].NumMedian != 742.5 || rep.Ratios[0].Ratio != 7.425 {
		t.Errorf("ratios = %+v, want 742.5/100 = 7.425", rep.Ratios)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"742.5", "median tokens", "median turns"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestResampledMedianEvenNMatchesEnumeration checks the bootstrap's
// shortcut for even n against the exact distribution of the midpoint median
// over all 4⁴ equally likely resamples.
func TestResampledMedianEvenNMatchesEnumeration(t *testing.T) {
	data := []float64{600, 600, 885, 1340}
	exact := map[float64]float64{}
	for i := range 256 {
		r := []float64{data[i%4], data[i/4%4], data[i/16%4], data[i/64]}
		// sort four values by hand
		for a := range r {
			for b := a + 1; b < len(r); b++ {
				if r[b] < r[a] {
					r[a], r[b] = r[b], r[a]
				}
			}
		}
		exact[(r[1]+r[2])/2] += 1.0 / 256
	}
	const draws = 200000
	fast := map[float64]float64{}
	rng := rand.New(rand.NewPCG(3, 4))
	for range draws {
		fast[resampledMedian(data, rng)] += 1.0 / draws
	}
	for x, p := range exact {
		if !near(fast[x], p, 0.006) {
			t.Errorf("P(median = %v): shortcut %.4f, exact %.4f", x, fast[x], p)
		}
	}
	for x := range fast {
		if _, ok := exact[x]; !ok {
			t.Errorf("shortcut drew median %v, which no resample has", x)
		}
	}
}
