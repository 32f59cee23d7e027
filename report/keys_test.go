package report

import "testing"

func TestPackedKeysAreOneToOne(t *testing.T) {
	var p packedKeys
	keys := []smallKey{
		{0, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, -1, 0}, {0, 1<<32 - 1, 0}, {0, 1 << 32, 0},
		{0, 0, 1<<11 - 1}, {0, 0, 1 << 11}, {0, 0, -1}, {1<<20 - 1, 0, 0}, {1 << 20, 0, 0}, {0, -1 << 40, 3},
	}
	seen := map[uint64]smallKey{}
	for _, k := range keys {
		got := p.of(k)
		if other, ok := seen[got]; ok {
			t.Errorf("%v and %v have the same key %#x", k, other, got)
		}
		seen[got] = k
		if again := p.of(k); again != got {
			t.Errorf("%v: key %#x, then %#x", k, got, again)
		}
	}
}
