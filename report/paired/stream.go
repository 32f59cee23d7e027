package paired

import (
	"hash/fnv"
	"math/rand/v2"
)

// stream is the random generator of one bootstrap resample. Each resample
// has its own, seeded by the options' seed, the result's label and the
// resample's index (newStream), so that the resamples can be drawn on any
// number of workers in any order and still give the same replicates.
//
// It draws indices by Lemire's multiply-and-reject method on 32 bits, two
// from each 64-bit output of the PCG generator: a draw is the hot step of
// a bootstrap over hundreds of thousands of pairs, and math/rand/v2's
// Rand.IntN, through its Source interface and one 64-bit output a draw,
// cost about twice as much. The law is the same: every index in [0, n) is
// equally likely.
type stream struct {
	pcg   rand.PCG
	spare uint32 // the unused half of the last output
	has   bool   // whether spare is unused
}

// newStream returns the stream of resample b of the result labelled
// label, under the options' seed.
func newStream(seed uint64, label string, b int) stream {
	h := fnv.New64a()
	h.Write([]byte(label))
	lab := h.Sum64()
	return stream{pcg: *rand.NewPCG(splitmix(seed^splitmix(uint64(b))), splitmix(lab+uint64(b)))}
}

// splitmix is the finaliser of SplitMix64 (Steele, Lea and Flood 2014): it
// spreads nearby seeds (resample b and b+1) to unrelated generator states.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// uint32 returns 32 uniform random bits.
func (s *stream) uint32() uint32 {
	if s.has {
		s.has = false
		return s.spare
	}
	x := s.pcg.Uint64()
	s.spare, s.has = uint32(x>>32), true
	return uint32(x)
}

// intN returns a uniform index in [0, n), for 0 < n < 2³² (Lemire 2019,
// "Fast random integer generation in an interval").
func (s *stream) intN(n int) int { return s.intNFrom(s.uint32(), n) }

// intNFrom is intN starting from the 32 random bits x, drawing more only
// when x falls in the few values that would bias the index.
func (s *stream) intNFrom(x uint32, n int) int {
	m := uint64(x) * uint64(n)
	if uint32(m) < uint32(n) {
		t := -uint32(n) % uint32(n) // 2³² mod n: the low parts that would bias the draw
		for uint32(m) < t {
			m = uint64(s.uint32()) * uint64(n)
		}
	}
	return int(m >> 32)
}
