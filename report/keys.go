package report

// smallKey is three whole numbers — an input's index, a seed, a repeat —
// that the report looks episodes up by.
type smallKey struct{ input, seed, repeat int }

// packedKeys turns smallKeys into 64-bit map keys: maps of a million
// uint64 keys are several times faster than maps of structs. Keys that do
// not pack (huge seeds or repeats) are numbered, with the top bit set.
type packedKeys struct{ odd map[smallKey]uint64 }

// of returns k's 64-bit key: the same for the same k, different for
// different ones.
func (p *packedKeys) of(k smallKey) uint64 {
	if uint(k.input) < 1<<20 && uint(k.repeat) < 1<<11 && uint(k.seed) < 1<<32 {
		return uint64(k.input)<<43 | uint64(k.repeat)<<32 | uint64(k.seed)
	}
	if p.odd == nil {
		p.odd = map[smallKey]uint64{}
	}
	n, ok := p.odd[k]
	if !ok {
		n = uint64(len(p.odd))
		p.odd[k] = n
	}
	return 1<<63 | n
}
