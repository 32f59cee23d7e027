package clamp

import "testing"

func TestClampInside(t *testing.T) {
	if got := Clamp(5, 0, 10); got != 5 {
		t.Errorf("Clamp(5, 0, 10) = %d, want 5", got)
	}
}

func TestClampBelow(t *testing.T) {
	if got := Clamp(-3, 0, 10); got != 0 {
		t.Errorf("Clamp(-3, 0, 10) = %d, want 0", got)
	}
}

func TestClampAbove(t *testing.T) {
	if got := Clamp(12, 0, 10); got != 10 {
		t.Errorf("Clamp(12, 0, 10) = %d, want 10", got)
	}
}

func TestPercent(t *testing.T) {
	for in, want := range map[int]int{-5: 0, 50: 50, 140: 100} {
		if got := Percent(in); got != want {
			t.Errorf("Percent(%d) = %d, want %d", in, got, want)
		}
	}
}
