package shop

import "fmt"

// Line writes one item of an invoice: "2 x tea 3.00".
func Line(it Item) string {
	cost := it.Price * it.Qty
	return fmt.Sprintf("%d x %s %s", it.Qty, it.Name, cost)
}
