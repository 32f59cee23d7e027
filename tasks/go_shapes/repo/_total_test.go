package shapes

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestGardenHasTwoBeds(t *testing.T) {
	if n := len(Garden()); n != 2 {
		t.Fatalf("Garden() has %d beds, want 2", n)
	}
}

func TestTotalArea(t *testing.T) {
	if got, want := TotalArea(Garden()), 4+math.Pi; !near(got, want) {
		t.Errorf("TotalArea(Garden()) = %.4f, want %.4f", got, want)
	}
}

func TestFence(t *testing.T) {
	if got, want := Fence(Garden()), 8+2*math.Pi; !near(got, want) {
		t.Errorf("Fence(Garden()) = %.4f, want %.4f", got, want)
	}
}

func TestSquare(t *testing.T) {
	s := Square{Side: 3}
	if s.Area() != 9 || s.Perimeter() != 12 {
		t.Errorf("Square{Side: 3}: area %.1f, perimeter %.1f; want 9 and 12", s.Area(), s.Perimeter())
	}
}
