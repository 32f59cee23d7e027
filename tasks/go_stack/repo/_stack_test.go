package stack

import "testing"

func TestPushPop(t *testing.T) {
	var s Stack
	s.Push(1)
	s.Push(2)
	if v, ok := s.Pop(); v != 2 || !ok {
		t.Errorf("Pop() = %d, %v; want 2, true", v, ok)
	}
	if s.Len() != 1 {
		t.Errorf("Len() = %d after one Pop, want 1", s.Len())
	}
}

func TestPopEmpty(t *testing.T) {
	var s Stack
	if v, ok := s.Pop(); ok {
		t.Errorf("Pop() on an empty stack = %d, true; want ok false", v)
	}
}

func TestPeek(t *testing.T) {
	var s Stack
	for _, v := range []int{1, 2, 3} {
		s.Push(v)
	}
	if v, ok := s.Peek(); v != 3 || !ok {
		t.Errorf("Peek() = %d, %v; want 3, true", v, ok)
	}
	if s.Len() != 3 {
		t.Errorf("Len() = %d after Peek, want 3", s.Len())
	}
}

func TestPeekEmpty(t *testing.T) {
	var s Stack
	if _, ok := s.Peek(); ok {
		t.Error("Peek() on an empty stack: ok is true, want false")
	}
}
