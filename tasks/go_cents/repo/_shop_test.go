package shop

import "testing"

var basket = Cart{Items: []Item{{Name: "tea", Price: 150, Qty: 2}, {Name: "cake", Price: 245, Qty: 1}}}

func TestTotal(t *testing.T) {
	var want Cents = 545
	if got := basket.Total(); got != want {
		t.Errorf("Total() = %v, want %v", got, want)
	}
}

func TestEmptyCart(t *testing.T) {
	if got := (Cart{}).Total().String(); got != "0.00" {
		t.Errorf("empty Total() = %s, want 0.00", got)
	}
}

func TestLine(t *testing.T) {
	if got := Line(basket.Items[0]); got != "2 x tea 3.00" {
		t.Errorf("Line = %q, want %q", got, "2 x tea 3.00")
	}
}

func TestCentsString(t *testing.T) {
	if got := Cents(1205).String(); got != "12.05" {
		t.Errorf("Cents(1205) = %s, want 12.05", got)
	}
}
