// Package shop adds up shopping carts.
package shop

import "fmt"

// Cents is an amount of money in cents. Prices used to be plain ints;
// they are Cents now.
type Cents int64

// String writes 150 cents as "1.50".
func (c Cents) String() string {
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

// Item is one line of a cart.
type Item struct {
	Name  string
	Price Cents // for one unit
	Qty   int
}
