package testrun

import (
	"fmt"
	"sync"
)

// capBuffer keeps the first and the last half of at most max bytes written
// to it and counts what it drops in between.
type capBuffer struct {
	mu      sync.Mutex
	max     int
	head    []byte
	tail    []byte // ring buffer of the last max-len(head) bytes once head is full
	start   int    // index of the oldest byte in tail when it is full
	written int
}

func newCapBuffer(max int) *capBuffer {
	return &capBuffer{max: max}
}

// Write keeps p's bytes within the cap; it never fails.
func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.written += n
	if room := b.max/2 - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	tailMax := b.max - b.max/2
	for len(p) > 0 {
		if len(b.tail) < tailMax {
			k := min(tailMax-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		if len(p) >= tailMax {
			copy(b.tail, p[len(p)-tailMax:])
			b.start = 0
			break
		}
		k := copy(b.tail[b.start:], p)
		if k < len(p) {
			k += copy(b.tail, p[k:])
		}
		b.start = (b.start + len(p)) % tailMax
		break
	}
	return n, nil
}

// String returns the kept output, with a marker line where bytes were cut,
// and how many bytes were cut.
func (b *capBuffer) String() (string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := append(append([]byte{}, b.tail[b.start:]...), b.tail[:b.start]...)
	cut := b.written - len(b.head) - len(tail)
	if cut == 0 {
		return string(b.head) + string(tail), 0
	}
	marker := fmt.Sprintf("\n[bench: %d bytes of output cut here; the output is capped at %d bytes]\n", cut, b.max)
	return string(b.head) + marker + string(tail), cut
}
