// Package stack is a last-in, first-out stack of ints.
package stack

// Stack holds ints; the zero value is an empty stack.
type Stack struct{ items []int }

// Push puts v on top.
func (s *Stack) Push(v int) { s.items = append(s.items, v) }

// Len is the number of items.
func (s *Stack) Len() int { return len(s.items) }

// Pop takes the top item off; ok is false when the stack is empty.
func (s *Stack) Pop() (v int, ok bool) {
	v = s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Peek returns the top item without taking it off; ok is false when the
// stack is empty.
func (s *Stack) Peek() (v int, ok bool) {
	if len(s.items) == 0 {
		return 0, false
	}
	return s.items[0], true
}
